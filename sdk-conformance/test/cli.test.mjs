// The official CLI (phala 1.1.18) against the simulator: pointed at it with PHALA_CLOUD_API_PREFIX and
// PHALA_CLOUD_API_KEY, its update check off (PHALA_DISABLE_UPDATE_CHECK=1) and its credentials directory in a
// temporary folder (PHALA_CLOUD_DIR), so it never reaches phala.com or the npm registry.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { commitCvmProvision, createAppInstance, getCvmState, provisionCvm } from "@phala/cloud";
import { API_KEY, API_PREFIX, client, COMPOSE, eventually, resetSimulator } from "./support.mjs";

/** The installed CLI's entry point (its package exports nothing else). */
const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "phala", "dist", "index.js");
const home = process.env.CONFORMANCE_HOME ?? mkdtempSync(join(tmpdir(), "phala-cli-"));

/** Runs the CLI; answers its exit code, stdout and stderr (colours off). */
function phala(...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], {
      cwd: home,
      timeout: 30_000,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        PHALA_CLOUD_DIR: join(home, ".phala-cloud"),
        PHALA_CLOUD_API_PREFIX: API_PREFIX,
        PHALA_CLOUD_API_KEY: API_KEY,
        PHALA_DISABLE_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        FORCE_COLOR: "0",
      },
    }, (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

const apps = {};

before(async () => {
  await resetSimulator();
  const sdk = client("2026-01-21");
  const running = (id) => eventually(`${id} running`, async () => (await getCvmState(sdk, { id })).status === "running");
  // one create at a time, as the service wants it (a create while another CVM is being created answers 400)
  for (const name of ["cli-alpha", "cli-beta"]) {
    const provision = await provisionCvm(sdk, { name, compose_file: { docker_compose_file: COMPOSE } });
    apps[name] = (await commitCvmProvision(sdk, { app_id: provision.app_id, compose_hash: provision.compose_hash }))
      .app_id;
    await running(name);
  }
  const instance = await createAppInstance(sdk, { appId: apps["cli-alpha"] });
  apps.instance = instance.name;
  await running(instance.name);
});
after(resetSimulator);

describe("CLI phala 1.1.18", () => {
  test("phala cvms list: one row per app, with live status and uptime", async () => {
    const { code, stdout, stderr } = await phala("cvms", "list");
    assert.equal(code, 0, stderr);
    assert.match(stdout, /APP_ID\s+CVM\s+STATUS\s+UPTIME/);
    for (const name of ["cli-alpha", "cli-beta"]) {
      assert.match(stdout, new RegExp(`${apps[name]}\\s+${name}\\s+running\\s+(\\d+[hm] )*\\d+s`));
    }
    assert.match(stdout + stderr, /Page 1\/1 \(total 2\)/);
  });

  test("phala cvms list --json", async () => {
    const { code, stdout, stderr } = await phala("cvms", "list", "--json");
    assert.equal(code, 0, stderr);
    const answer = JSON.parse(stdout);
    assert.equal(answer.total, 2);
    assert.deepEqual(answer.items.map((item) => item.cvmName).sort(), ["cli-alpha", "cli-beta"]);
    assert.ok(answer.items.every((item) => item.status === "running"));
  });

  test("phala apps", async () => {
    const { code, stdout, stderr } = await phala("apps");
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`${apps["cli-alpha"]}\\s+cli-alpha\\s+running`));
    assert.match(stdout, new RegExp(`${apps["cli-beta"]}\\s+cli-beta\\s+running`));
    const searched = await phala("apps", "--search", "cli-beta", "--json");
    assert.equal(searched.code, 0, searched.stderr);
    assert.deepEqual(JSON.parse(searched.stdout).items.map((item) => item.cvmName), ["cli-beta"]);
  });

  test("phala cvms get <name> shows one CVM", async () => {
    const { code, stdout, stderr } = await phala("cvms", "get", "cli-beta");
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Name\s+│ cli-beta/);
    assert.match(stdout, new RegExp(`App ID\\s+│ app_${apps["cli-beta"]}`));
    assert.match(stdout, /Status\s+│ running/);
    assert.match(stdout, /vCPU\s+│ 1/);
    assert.match(stdout, /Memory\s+│ 2 GB/);
  });

  test("phala cvms get --json, by app id and by the added instance's name", async () => {
    const byApp = await phala("cvms", "get", `app_${apps["cli-alpha"]}`, "--json");
    assert.equal(byApp.code, 0, byApp.stderr);
    assert.equal(JSON.parse(byApp.stdout).name, "cli-alpha");
    const instance = await phala("cvms", "get", apps.instance, "--json");
    assert.equal(instance.code, 0, instance.stderr);
    const cvm = JSON.parse(instance.stdout);
    assert.equal(cvm.app_id, apps["cli-alpha"]);
    assert.equal(cvm.resource.disk_in_gb, 20);
    assert.match(cvm.id, /^cvm_/, "2026-01-21: the hashed id");
  });

  test("phala cvms get of an unknown CVM fails with the API's message", async () => {
    const { code, stdout, stderr } = await phala("cvms", "get", "no-such-cvm");
    assert.equal(code, 1);
    assert.match(stdout + stderr, /CVM not found/);
  });

  test("phala cvms list --api-version 2025-10-28", async () => {
    const { code, stdout, stderr } = await phala("cvms", "list", "--api-version", "2025-10-28");
    assert.equal(code, 0, stderr);
    assert.match(stdout, /cli-alpha\s+running/);
  });

  test("phala whoami and phala status", async () => {
    const whoami = await phala("whoami");
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.equal(whoami.stdout.trim(), "simulator (Simulator)");
    const status = await phala("status", "--json");
    assert.equal(status.code, 0, status.stderr);
    const answer = JSON.parse(status.stdout);
    assert.equal(answer.apiUrl, API_PREFIX);
    assert.equal(answer.username, "simulator");
    assert.equal(answer.team_name, "Simulator");
  });
});
