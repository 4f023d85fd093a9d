// Error answers as the official SDK decodes them: each must become the SDK's error class for its status, with
// the message the simulator sent (BusinessError, ResourceError for the structured shape, AuthError, ValidationError,
// ServerError).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  AuthError,
  BusinessError,
  commitCvmProvision,
  getAppInfo,
  getAppRevisions,
  getCvmInfo,
  getCvmList,
  PhalaCloudError,
  provisionCvm,
  ResourceError,
  restartCvm,
  ServerError,
  startCvm,
  ValidationError,
} from "@phala/cloud";
import {
  clearFaults,
  client,
  COMPOSE,
  eventually,
  injectFault,
  resetSimulator,
  SDK_VERSIONS,
  setTimings,
} from "./support.mjs";

const NAME = "sdk-errors";
let appId;

before(async () => {
  await resetSimulator();
  const sdk = client("2026-01-21");
  const provision = await provisionCvm(sdk, { name: NAME, compose_file: { docker_compose_file: COMPOSE } });
  appId = (await commitCvmProvision(sdk, { app_id: provision.app_id, compose_hash: provision.compose_hash })).app_id;
  await eventually("CVM running", async () => (await getCvmInfo(sdk, { id: NAME })).status === "running");
});
after(async () => {
  await clearFaults();
  await resetSimulator();
});

/** Asserts that {@code promise} rejects with an instance of {@code type}, this status and this message. */
async function rejectsWith(promise, type, status, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof type, `${error?.constructor?.name}: ${error?.message}`);
    assert.ok(error instanceof PhalaCloudError);
    assert.equal(error.status, status);
    assert.equal(error.message, message);
    return true;
  });
}

describe("errors decoded by SDK 0.2.9", () => {
  for (const version of SDK_VERSIONS) {
    test(`404 CVM not found / App not found (${version}) -> BusinessError`, async () => {
      const sdk = client(version);
      await rejectsWith(getCvmInfo(sdk, { id: "no-such-cvm" }), BusinessError, 404, "CVM not found");
      await rejectsWith(getCvmInfo(sdk, { id: "999999" }), BusinessError, 404, "CVM not found");
      await rejectsWith(getAppInfo(sdk, { appId: "0".repeat(40) }), BusinessError, 404, "App not found");
    });
  }

  test("409 while another operation runs -> BusinessError with the platform's message", async () => {
    const sdk = client("2026-01-21");
    const timings = await setTimings({ restartMs: 2_000 }); // long enough for the second call, however slow
    try {
      await restartCvm(sdk, { id: NAME });
      await rejectsWith(restartCvm(sdk, { id: NAME }), BusinessError, 409,
        "Another operation is in progress on this CVM");
    } finally {
      await setTimings(timings);
    }
    await eventually("CVM running again", async () => (await getCvmInfo(sdk, { id: NAME })).status === "running");
  });

  test("400 start of a running CVM -> BusinessError", async () => {
    await rejectsWith(startCvm(client("2025-10-28"), { id: NAME }), BusinessError, 400, "CVM is already running");
  });

  test("409 duplicate name (structured ERR-01-004) -> ResourceError with code, details and message", async () => {
    const sdk = client("2026-01-21");
    await assert.rejects(provisionCvm(sdk, { name: NAME, compose_file: { docker_compose_file: COMPOSE } }), (error) => {
      assert.ok(error instanceof ResourceError, `${error?.constructor?.name}: ${error?.message}`);
      assert.equal(error.status, 409);
      assert.equal(error.errorCode, "ERR-01-004");
      assert.equal(error.message, "CVM name already exists");
      assert.equal(error.structuredDetails[0].field, "name");
      return true;
    });
  });

  test("401 wrong API key -> AuthError", async () => {
    await rejectsWith(getCvmList(client("2026-01-21", { apiKey: "phak_wrong" })), AuthError, 401,
      "Missing or invalid API key");
  });

  test("422 page_size out of range -> ValidationError naming the field", async () => {
    await assert.rejects(getAppRevisions(client("2025-10-28"), { appId, page_size: 500 }), (error) => {
      assert.ok(error instanceof ValidationError, `${error?.constructor?.name}: ${error?.message}`);
      assert.equal(error.status, 422);
      assert.equal(error.message, "Validation failed: Input should be between 1 and 100");
      assert.equal(error.validationErrors[0].field, "page_size");
      return true;
    });
  });

  test("400 unsupported X-Phala-Version -> BusinessError naming the supported versions", async () => {
    const sdk = client("2026-01-21", { headers: { "X-Phala-Version": "1999-01-01" } });
    await rejectsWith(getCvmList(sdk), BusinessError, 400,
      "Unsupported API version '1999-01-01' in X-Phala-Version; supported: 2025-10-28, 2026-01-21, 2026-05-22");
  });

  // the SDK's HTTP client (ofetch) retries a GET once on 408/409/425/429/500/502/503/504: hence times 2
  test("injected faults: 503 -> ServerError, 429 -> BusinessError, structured ERR-02-005 -> ResourceError", async () => {
    const sdk = client("2026-01-21");
    await injectFault({ method: "GET", pathPattern: "/cvms/paginated", status: 503, times: 2 });
    await rejectsWith(getCvmList(sdk), ServerError, 503, "Service temporarily unavailable");
    await injectFault({ method: "GET", pathPattern: "/cvms/paginated", status: 429, times: 2, retryAfterSeconds: 1 });
    await rejectsWith(getCvmList(sdk), BusinessError, 429, "Too many requests");
    await injectFault({ method: "POST", pathPattern: "/cvms/provision", status: 400, errorCode: "ERR-02-005" });
    await assert.rejects(provisionCvm(sdk, { name: "sdk-fault", compose_file: { docker_compose_file: COMPOSE } }),
      (error) => error instanceof ResourceError && error.status === 400 && error.errorCode === "ERR-02-005");
    const page = await getCvmList(sdk);
    assert.equal(page.total, 1, "each fault answered once; a faulted call changes nothing");
  });
});
