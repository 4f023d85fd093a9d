// The contract test of our Java client against the official SDK (@phala/cloud 0.2.9): every request the Java client
// sent to the simulator during the web module's end-to-end tests (bootstrap, rollouts, env rollouts, scales, heals,
// on-chain KMS updates) was recorded by the simulator's request journal (simulator.request-journal). Each recorded
// request is rebuilt with the SDK's own action from the values it carries, sent by the SDK to a local capture server,
// and the two are compared: method, path and query, Content-Type, X-Phala-Version, X-API-Key, X-Compose-Hash,
// X-Transaction-Hash and the body (JSON compared as values, text byte for byte). The SDK's request schemas run on the
// way (an input it refuses is a failure) and its serialisation fills in its defaults (a default we leave out is a
// failure). A request no SDK action makes is a failure, except PATCH /cvms/{id}/name, which the SDK lacks and the
// Terraform provider documents (docs/design-notes/cvm-rename-endpoint.md): its name is checked with the SDK's own
// hostname rule. Accept and User-Agent are not compared (transport, not API).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as sdk from "@phala/cloud";

const here = dirname(fileURLToPath(import.meta.url));
const JOURNAL_DIR = resolve(process.env.JAVA_CLIENT_JOURNAL ?? join(here, "..", "..", "web", "target", "phala-requests"));
/** Our client names itself so the journal can tell its requests from the tests' own calls to the simulator. */
const OUR_CLIENT = "stateful-cvm-orchestrator/";
const API_KEY = "contract-test-key";

/** The SDK actions the recorded calls must include: bootstrap, rollout, env rollout, scale, heal, on-chain KMS. */
const REQUIRED = [
  "provisionCvm", "commitCvmProvision", "createAppInstance", "renameCvm (provider)", "getAppCvms", "getCvmInfo",
  "updateDockerCompose", "updateCvmEnvs", "getAppEnvEncryptPubKey", "commitCvmUpdate", "startCvm", "deleteCvm",
  "getCurrentUser", "getWorkspaceQuotas",
];

const HEX40 = "[0-9a-fA-F]{40}";
const ID = "[^/?]+";
/** [method, path regex, action name, (match, request) => call of the SDK action]. */
const ROUTES = [
  ["GET", `^/apps/(${ID})$`, "getAppInfo", (m) => (c) => sdk.getAppInfo(c, { appId: m[1] })],
  ["GET", `^/apps/(${ID})/cvms$`, "getAppCvms", (m) => (c) => sdk.getAppCvms(c, { appId: m[1] })],
  ["GET", `^/apps/(${ID})/revisions$`, "getAppRevisions", (m, r) => (c) => sdk.getAppRevisions(c,
    { appId: m[1], ...numbers(query(r), ["page", "page_size"]) })],
  ["GET", `^/apps/(${ID})/revisions/(${ID})$`, "getAppRevisionDetail", (m) => (c) => sdk.getAppRevisionDetail(c,
    { appId: m[1], revisionId: m[2] })],
  ["GET", `^/cvms/(${ID})$`, "getCvmInfo", (m) => (c) => sdk.getCvmInfo(c, { id: m[1] })],
  ["GET", `^/cvms/(${ID})/state$`, "getCvmState", (m) => (c) => sdk.getCvmState(c, { id: m[1] })],
  ["GET", `^/cvms/(${ID})/attestation$`, "getCvmAttestation", (m) => (c) => sdk.getCvmAttestation(c, { id: m[1] })],
  ["GET", `^/cvms/(${ID})/network$`, "getCvmNetwork", (m) => (c) => sdk.getCvmNetwork(c, { id: m[1] })],
  ["POST", "^/status/batch$", "getCvmStatusBatch", (m, r) => (c) => sdk.getCvmStatusBatch(c, { vmUuids: json(r).vm_uuids })],
  ["POST", `^/cvms/(${ID})/start$`, "startCvm", (m) => (c) => sdk.startCvm(c, { id: m[1] })],
  ["POST", `^/cvms/(${ID})/stop$`, "stopCvm", (m) => (c) => sdk.stopCvm(c, { id: m[1] })],
  ["POST", `^/cvms/(${ID})/shutdown$`, "shutdownCvm", (m) => (c) => sdk.shutdownCvm(c, { id: m[1] })],
  ["POST", `^/cvms/(${ID})/restart$`, "restartCvm", (m, r) => (c) => sdk.restartCvm(c, { id: m[1], ...json(r) })],
  ["DELETE", `^/cvms/(${ID})$`, "deleteCvm", (m) => (c) => sdk.deleteCvm(c, { id: m[1] })],
  ["PATCH", `^/cvms/(${ID})/docker-compose$`, "updateDockerCompose", (m, r) => (c) => sdk.updateDockerCompose(c, {
    id: m[1], docker_compose_file: r.body ?? "",
    ...(r.composeHashHeader ? { compose_hash: r.composeHashHeader } : {}),
    ...(r.transactionHashHeader ? { transaction_hash: r.transactionHashHeader } : {}),
  })],
  ["PATCH", `^/cvms/(${ID})/envs$`, "updateCvmEnvs", (m, r) => (c) => sdk.updateCvmEnvs(c, { id: m[1], ...json(r) })],
  ["POST", `^/cvms/(${ID})/commit-update$`, "commitCvmUpdate", (m, r) => (c) => sdk.commitCvmUpdate(c, {
    id: m[1], token: json(r).token, composeHash: json(r).compose_hash, transactionHash: json(r).transaction_hash,
  })],
  ["POST", `^/apps/(${ID})/instances$`, "createAppInstance", (m, r) => (c) => sdk.createAppInstance(c,
    { appId: m[1], ...json(r) })],
  ["POST", "^/cvms/provision$", "provisionCvm", (m, r) => (c) => sdk.provisionCvm(c, json(r))],
  ["POST", "^/cvms$", "commitCvmProvision", (m, r) => (c) => sdk.commitCvmProvision(c, json(r))],
  ["GET", `^/kms/(${ID})/pubkey/(${ID})$`, "getAppEnvEncryptPubKey", (m) => (c) => sdk.getAppEnvEncryptPubKey(c,
    { kms: m[1], app_id: m[2] })],
  ["GET", "^/auth/me$", "getCurrentUser", () => (c) => sdk.getCurrentUser(c)],
  ["GET", `^/workspaces/(${ID})/quotas$`, "getWorkspaceQuotas", (m) => (c) => sdk.getWorkspaceQuotas(c, { teamSlug: m[1] })],
];

function query(request) {
  return Object.fromEntries(new URLSearchParams(request.query ?? ""));
}

function numbers(values, names) {
  return Object.fromEntries(names.filter((n) => values[n] !== undefined).map((n) => [n, Number(values[n])]));
}

function json(request) {
  return request.body ? JSON.parse(request.body) : {};
}

function journal() {
  if (!existsSync(JOURNAL_DIR)) {
    return null;
  }
  return readdirSync(JOURNAL_DIR).filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(JOURNAL_DIR, f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)))
    .filter((r) => (r.userAgent ?? "").startsWith(OUR_CLIENT));
}

// ---- the SDK's side: its real client, sending to a server that only records what arrives ------------------------

let server;
let client;
const captured = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => { body += chunk; });
    req.on("end", () => {
      captured.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  // the SDK's defaults: no version given, so the version it sends is its own
  client = sdk.createClient({ baseURL: `http://127.0.0.1:${server.address().port}/api/v1`, apiKey: API_KEY });
});

after(() => server?.close());

/** What the SDK sends for the call, or why it refuses to make it. */
async function sdkRequest(call) {
  captured.length = 0;
  let refusal;
  try {
    await call(client);
  } catch (error) {
    // a schema error of the answer ({} from the capture server) comes after the request went out
    refusal = error;
  }
  if (captured.length === 0) {
    return { refused: refusal?.issues ? JSON.stringify(refusal.issues) : String(refusal) };
  }
  return captured[0];
}

function header(headers, name) {
  return headers[name.toLowerCase()];
}

function sameBody(ours, theirs, contentType) {
  if ((contentType ?? "").startsWith("application/json")) {
    const a = ours ? JSON.parse(ours) : undefined;
    const b = theirs ? JSON.parse(theirs) : undefined;
    // JSON.stringify drops undefined members, as the SDK's serialisation does
    assert.deepEqual(a, b);
  } else {
    assert.equal(ours ?? "", theirs ?? "");
  }
}

/** The provider-documented rename: PATCH, JSON {name}, the name by the SDK's own hostname rule. */
function checkRename(request) {
  assert.equal((request.contentType ?? "").split(";")[0], "application/json");
  const body = json(request);
  assert.deepEqual(Object.keys(body), ["name"], "the body is exactly {name}");
  assert.ok(sdk.isValidHostname(body.name), `name ${body.name} passes the SDK's hostname rule`);
  assert.match(request.path, /^\/cvms\/cvm_[^/]+\/name$/, "by the hashed cvm_ id (the provider's note)");
  assert.equal(request.phalaVersion, client.config.version, "X-Phala-Version: the SDK's own");
  assert.equal(request.apiKey, true, "X-API-Key");
}

const requests = journal();

test("the journal of the Java client's requests is there (mvn verify runs the web tests that write it)", () => {
  assert.ok(requests !== null, `no journal at ${JOURNAL_DIR}: run the web module's tests first (mvn verify)`);
  assert.ok(requests.length > 0, `the journal at ${JOURNAL_DIR} holds no request of our client`);
});

test("every request the Java client sent is one the official SDK sends, byte for byte where it matters", async () => {
  const distinct = new Map();
  for (const r of requests ?? []) {
    const key = JSON.stringify([r.method, r.path, r.query, r.contentType, r.phalaVersion, r.apiKey,
      r.composeHashHeader, r.transactionHashHeader, r.prepareOnlyHeader, r.body]);
    distinct.set(key, r);
  }
  const failures = [];
  const seen = new Set();
  for (const r of distinct.values()) {
    const what = `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`;
    try {
      if (r.method === "PATCH" && /^\/cvms\/[^/]+\/name$/.test(r.path)) {
        checkRename(r);
        seen.add("renameCvm (provider)");
        continue;
      }
      const route = ROUTES.find(([method, pattern]) => method === r.method && new RegExp(pattern).test(r.path));
      assert.ok(route, "no SDK action makes this request");
      const [, pattern, action, build] = route;
      const theirs = await sdkRequest(build(r.path.match(new RegExp(pattern)), r));
      assert.ok(!theirs.refused, `the SDK's ${action} refuses these values: ${theirs.refused}`);
      const [theirPath, theirQuery] = theirs.url.replace(/^\/api\/v1/, "").split("?");
      assert.equal(r.method, theirs.method, "method");
      assert.equal(r.path, theirPath, "path");
      assert.equal(r.query ?? "", theirQuery ?? "", "query");
      assert.equal((r.contentType ?? "").split(";")[0].trim(), header(theirs.headers, "content-type"), "Content-Type");
      assert.equal(r.phalaVersion, header(theirs.headers, "x-phala-version"), "X-Phala-Version");
      assert.equal(r.apiKey, true, "X-API-Key");
      assert.equal(r.composeHashHeader ?? undefined, header(theirs.headers, "x-compose-hash"), "X-Compose-Hash");
      assert.equal(r.transactionHashHeader ?? undefined, header(theirs.headers, "x-transaction-hash"), "X-Transaction-Hash");
      assert.equal(r.prepareOnlyHeader ?? undefined, header(theirs.headers, "x-prepare-only"), "X-Prepare-Only");
      sameBody(r.body, theirs.body, r.contentType);
      seen.add(action);
    } catch (error) {
      failures.push(`${what} [${r.contentType ?? "no body"}] ${r.body ? r.body.slice(0, 300) : ""}\n    ${error.message}`);
    }
  }
  assert.deepEqual(failures, [], `${failures.length} of ${distinct.size} distinct requests differ from the SDK's:\n${failures.join("\n")}`);
  const missing = REQUIRED.filter((a) => !seen.has(a));
  assert.deepEqual(missing, [], `the journal holds no ${missing.join(", ")}: the web tests that make them did not run`);
  process.stdout.write(`# contract: ${distinct.size} distinct requests of ${requests.length} checked, actions: ${[...seen].sort().join(", ")}\n`);
});
