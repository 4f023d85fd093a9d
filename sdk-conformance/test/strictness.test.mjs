// The simulator's answers to the calls issue 18 added, read by the official SDK 0.2.9 itself: the env key endpoint
// (its strict schema) with a signature dstack's verifyEnvEncryptPublicKey recovers to the KMS's signing key, the
// workspace's quotas, an on-chain KMS app's 465 as updateDockerCompose reads it and commitCvmUpdate after it, and the
// observed 400 of a create while another CVM is being created.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  commitCvmProvision,
  commitCvmUpdate,
  createAppInstance,
  getAppEnvEncryptPubKey,
  getCurrentUser,
  getWorkspaceQuotas,
  provisionCvm,
  updateDockerCompose,
  verifyEnvEncryptPublicKey,
} from "@phala/cloud";
import { ADMIN, client, COMPOSE, eventually, resetSimulator, UPDATED_COMPOSE } from "./support.mjs";

before(resetSimulator);
after(resetSimulator);

async function admin(method, path, body) {
  const response = await fetch(`${ADMIN}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status}`);
  return response.json();
}

describe("issue 18's answers, read by the SDK 0.2.9", () => {
  const sdk = client("2026-01-21");
  let appId;
  let name;

  test("an app to work with", async () => {
    name = "strict-sdk-app";
    const provision = await provisionCvm(sdk, { name, compose_file: { docker_compose_file: COMPOSE } });
    appId = provision.app_id;
    await commitCvmProvision(sdk, { app_id: appId, compose_hash: provision.compose_hash });
  });

  test("createAppInstance while the first CVM is still being created is refused with the observed 400", async () => {
    await assert.rejects(createAppInstance(sdk, { appId }), (error) => {
      assert.equal(error.status, 400);
      assert.match(error.message, /configuration parameters are not compatible/);
      return true;
    });
    await eventually("the first CVM created", async () => {
      const cvms = await (await fetch(`${ADMIN}/events`)).json();
      return cvms.some((e) => e.cvm === name && e.to === "running");
    });
  });

  test("getAppEnvEncryptPubKey answers exactly its strict schema, signed by the KMS's key", async () => {
    const kms = await admin("GET", "/kms");
    const key = await getAppEnvEncryptPubKey(sdk, { kms: kms.slug, app_id: appId });
    const signer = verifyEnvEncryptPublicKey(Buffer.from(key.public_key, "hex"), Buffer.from(key.signature, "hex"), appId);
    assert.equal(signer, kms.signer);
  });

  test("getCurrentUser names the workspace whose quotas getWorkspaceQuotas reads", async () => {
    const me = await getCurrentUser(sdk);
    const quotas = await getWorkspaceQuotas(sdk, { teamSlug: me.workspace.slug });
    assert.equal(quotas.team_slug, me.workspace.slug);
    assert.ok(quotas.quotas.vm_slots.remaining < quotas.quotas.vm_slots.limit);
  });

  test("an on-chain KMS app: updateDockerCompose reads the 465 as precondition_required; commitCvmUpdate commits it", async () => {
    await admin("POST", `/apps/${appId}/on-chain-kms`, { enabled: true });
    const required = await updateDockerCompose(sdk, { id: name, docker_compose_file: UPDATED_COMPOSE });
    assert.equal(required.status, "precondition_required");
    assert.equal(required.app_id, appId);
    assert.match(required.compose_hash, /^[0-9a-f]{64}$/);
    assert.equal(required.kms_info.chain_id, 8453);
    assert.ok(required.kms_info.chain, "the SDK knows the chain (Base)");
    // the commit token is in the 465's details (patchCvm reads it as commitToken); updateDockerCompose drops it
    const raw = await fetch(`${sdk.config.baseURL}/cvms/${name}/docker-compose`, {
      method: "PATCH",
      headers: { "Content-Type": "text/yaml", "X-API-Key": sdk.config.apiKey, "X-Phala-Version": "2026-01-21" },
      body: UPDATED_COMPOSE,
    });
    assert.equal(raw.status, 465);
    const token = (await raw.json()).detail.details.find((d) => d.field === "commit_token").value;
    // the simulated chain verifies the commit: the transaction must have been mined on the app's contract
    const { transactionHash } = await admin("POST", `/apps/${appId}/on-chain-kms/transactions`,
      { composeHash: required.compose_hash });
    const committed = await commitCvmUpdate(sdk, {
      id: name, token, composeHash: required.compose_hash, transactionHash,
    });
    assert.equal(committed.status, "in_progress");
    assert.match(committed.correlationId, /^[0-9a-f-]{36}$/);
  });
});
