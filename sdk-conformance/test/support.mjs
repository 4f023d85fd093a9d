// Shared by the conformance tests: where the simulator is, its admin controls, polling with a deadline, and an
// SDK client per API version. run.mjs sets SIMULATOR_URL and SIMULATOR_API_KEY.
import assert from "node:assert/strict";
import { createClient } from "@phala/cloud";

export const SIMULATOR_URL = process.env.SIMULATOR_URL ?? "http://127.0.0.1:8081";
export const API_KEY = process.env.SIMULATOR_API_KEY ?? "phak_sdk_conformance";
export const API_PREFIX = `${SIMULATOR_URL}/simulator/api/v1`;
export const ADMIN = `${SIMULATOR_URL}/simulator/_admin`;

/** The API versions the SDK 0.2.9 speaks. */
export const SDK_VERSIONS = ["2025-10-28", "2026-01-21"];

export const COMPOSE = `services:
  web:
    image: nginxdemos/hello:0.3
    ports:
      - "8080:80"
`;

export const UPDATED_COMPOSE = `services:
  web:
    image: nginxdemos/hello:0.4
    ports:
      - "8080:80"
`;

export function client(version, options = {}) {
  return createClient({ baseURL: API_PREFIX, apiKey: API_KEY, version, timeout: 10_000, ...options });
}

async function admin(method, path, body) {
  const response = await fetch(`${ADMIN}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    assert.fail(`${method} ${path}: ${response.status} ${await response.text()}`);
  }
  return response.status === 204 ? null : response.json();
}

export const resetSimulator = () => admin("POST", "/reset");
export const injectFault = (fault) => admin("POST", "/faults", fault);
export const clearFaults = () => admin("DELETE", "/faults");
/** Changes transition durations (ms), e.g. {@code {restartMs: 2000}}; answers the timings as they were before. */
export async function setTimings(timings) {
  const before = await admin("GET", "/timings");
  await admin("PUT", "/timings", timings);
  return before;
}

/** Calls {@code probe} until it answers a truthy value; fails with the last answer once the deadline has passed. */
export async function eventually(what, probe, { timeoutMs = 20_000, intervalMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) {
      return last;
    }
    if (Date.now() > deadline) {
      assert.fail(`${what}: not reached within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
