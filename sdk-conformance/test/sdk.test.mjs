// The official TypeScript SDK (@phala/cloud 0.2.9) against the simulator, in both API versions it speaks. Every
// action below parses the answer with the SDK's own zod schema for the client's version and throws if it does not
// fit, so each passing call is a schema check.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  commitCvmProvision,
  createAppInstance,
  getAppCvms,
  getAppInfo,
  getAppList,
  getAppRevisionDetail,
  getAppRevisions,
  getCurrentUser,
  getCvmAttestation,
  getCvmInfo,
  getCvmList,
  getCvmNetwork,
  getCvmState,
  getCvmStats,
  getCvmStatusBatch,
  provisionCvm,
  restartCvm,
  updateDockerCompose,
} from "@phala/cloud";
import { client, COMPOSE, eventually, resetSimulator, SDK_VERSIONS, UPDATED_COMPOSE } from "./support.mjs";

before(resetSimulator);
after(resetSimulator);

async function awaitRunning(sdk, id) {
  return eventually(`CVM ${id} running`, async () => {
    const state = await getCvmState(sdk, { id });
    return state.status === "running" && state;
  });
}

for (const version of SDK_VERSIONS) {
  const legacy = version === "2025-10-28";
  const name = `sdk-${version.replaceAll("-", "")}`;

  describe(`SDK 0.2.9, API version ${version}`, () => {
    const sdk = client(version);
    /** The app's first CVM as POST /cvms answered it (the VM record with its integer id). */
    let created;
    let appId;

    test("provisionCvm + commitCvmProvision create an app whose CVM boots", async () => {
      const provision = await provisionCvm(sdk, {
        name,
        instance_type: "tdx.small",
        compose_file: { docker_compose_file: COMPOSE, gateway_enabled: true, public_logs: true },
      });
      assert.match(provision.app_id, /^[0-9a-f]{40}$/);
      assert.match(provision.compose_hash, /^[0-9a-f]{64}$/);
      created = await commitCvmProvision(sdk, { app_id: provision.app_id, compose_hash: provision.compose_hash });
      appId = created.app_id;
      assert.equal(typeof created.id, "number", "an integer CVM id");
      assert.equal(created.name, name);
      assert.equal(created.status, "creating");
      assert.equal(created.teepod_id, 1);
      assert.equal(created.memory, 2048, "memory in MB");
      const state = await awaitRunning(sdk, name);
      assert.match(state.instance_id, /^[0-9a-f]{40}$/);
    });

    test("getCurrentUser: the simulated user and workspace", async () => {
      const me = await getCurrentUser(sdk);
      if (legacy) {
        assert.equal(me.username, "simulator");
        assert.equal(me.team_name, "Simulator");
        assert.equal(typeof me.credits, "number");
      } else {
        assert.equal(me.user.username, "simulator");
        assert.equal(me.workspace.name, "Simulator");
        assert.equal(me.credits.is_post_paid, false);
      }
    });

    test("getCvmList lists the CVM with this version's id", async () => {
      const page = await getCvmList(sdk, { page: 1, page_size: 50 });
      assert.equal(page.page, 1);
      assert.equal(page.page_size, 50);
      assert.ok(page.total >= 1);
      if (legacy) {
        const item = page.items.find((cvm) => cvm.name === name);
        assert.ok(item, JSON.stringify(page.items));
        assert.equal(item.hosted.id, created.vm_uuid, "hosted.id is the vm_uuid");
        assert.equal(item.hosted.app_id, appId);
        assert.equal(item.status, "running");
        assert.equal(item.memory, 2048);
        assert.equal(item.kms_info.slug, "phala-sim");
      } else {
        const item = page.items.find((cvm) => cvm.name === name);
        assert.ok(item, JSON.stringify(page.items));
        assert.match(item.id, /^cvm_/, "the hashed id (the schema's comment: hashed CvmId)");
        assert.equal(item.resource.vcpu, 1);
        assert.equal(item.resource.memory_in_gb, 2);
        assert.equal(item.node_info.object_type, "node");
        assert.equal(item.workspace.object_type, "workspace");
      }
    });

    test("getCvmInfo reads one CVM by name, integer id, vm_uuid and app_id", async () => {
      const byName = await getCvmInfo(sdk, { id: name });
      assert.equal(byName.name, name);
      assert.equal(byName.status, "running");
      if (legacy) {
        assert.equal(byName.id, created.id);
        assert.equal(byName.teepod_id, 1);
        assert.equal(byName.memory, 2048);
        assert.equal(byName.base_image, "dstack-0.5.3");
        assert.equal(byName.public_urls.length, 1);
        assert.match(byName.public_urls[0].instance, /^https:\/\/[0-9a-f]{40}-8080\./);
      } else {
        assert.match(byName.id, /^cvm_/);
        assert.equal(byName.compose_file.docker_compose_file, COMPOSE);
        assert.equal(byName.kms_type, "phala");
        assert.equal(byName.gateway_enabled, true);
        assert.equal(byName.endpoints.length, 1);
      }
      for (const ref of [{ id: String(created.id) }, { uuid: created.vm_uuid }, { app_id: appId }]) {
        const other = await getCvmInfo(sdk, ref);
        assert.equal(other.name, name, JSON.stringify(ref));
      }
    });

    test("getCvmState, getCvmNetwork, getCvmStats, getCvmStatusBatch", async () => {
      const state = await getCvmState(sdk, { id: name });
      assert.equal(state.id, created.vm_uuid);
      assert.equal(state.status, "running");
      assert.equal(state.boot_progress, "done");
      assert.equal(state.exited_at, undefined, "absent, never null");

      const network = await getCvmNetwork(sdk, { id: name });
      assert.equal(network.is_online, true);
      assert.match(network.internal_ip, /^10\.0\.\d+\.\d+$/);
      assert.equal(network.public_urls.length, 1);
      assert.match(network.public_urls[0].app, new RegExp(`^https://${appId}-8080\\.`));

      const stats = await getCvmStats(sdk, { id: name });
      assert.equal(stats.is_online, true);
      assert.equal(stats.sysinfo.num_cpus, 1);
      assert.equal(stats.sysinfo.total_memory, 2 * 1024 ** 3);
      assert.equal(stats.sysinfo.disks.find((d) => d.mount_point === "/dstack/persistent").total_size, 20 * 1024 ** 3);

      const batch = await getCvmStatusBatch(sdk, { vmUuids: [created.vm_uuid, "00000000-0000-4000-8000-000000000000"] });
      assert.deepEqual(Object.keys(batch), [created.vm_uuid], "unknown vm_uuids are left out");
      assert.equal(batch[created.vm_uuid].status, "running");
      assert.equal(batch[created.vm_uuid].in_progress, false);
    });

    test("getCvmAttestation: dstack event log with the CVM's compose hash", async () => {
      const attestation = await getCvmAttestation(sdk, { id: name });
      assert.equal(attestation.is_online, true);
      assert.equal(typeof attestation.compose_file, "string", "the app compose as JSON text");
      assert.equal(attestation.tcb_info.app_compose, attestation.compose_file);
      const composeHash = attestation.tcb_info.event_log.find((e) => e.event === "compose-hash");
      assert.equal(composeHash.imr, 3);
      assert.match(attestation.tcb_info.rtmr3, /^[0-9a-f]{96}$/);
    });

    test("restartCvm answers the VM record, then the CVM runs again", async () => {
      const vm = await restartCvm(sdk, { id: name });
      assert.equal(vm.id, created.id);
      assert.equal(vm.status, "restarting");
      const state = await awaitRunning(sdk, name);
      assert.equal(state.status, "running");
    });

    test("updateDockerCompose: in_progress with a correlation id; a new revision once it runs", async () => {
      const before = await getAppRevisions(sdk, { appId });
      const result = await updateDockerCompose(sdk, { id: name, docker_compose_file: UPDATED_COMPOSE });
      assert.equal(result.status, "in_progress");
      assert.match(result.correlation_id, /^[0-9a-f-]{36}$/);
      assert.ok(result.message.length > 0);
      await awaitRunning(sdk, name);
      const after = await getAppRevisions(sdk, { appId });
      assert.equal(after.total, before.total + 1);
      assert.equal(after.revisions[0].operation_type, "update_compose");
      if (!legacy) {
        const info = await getCvmInfo(sdk, { id: name });
        assert.equal(info.compose_hash, after.revisions[0].compose_hash);
        assert.equal(info.compose_file.docker_compose_file, UPDATED_COMPOSE);
      }
    });

    test("getAppList, getAppInfo, getAppCvms", async () => {
      const list = await getAppList(sdk, { page: 1, page_size: 10 });
      const app = list.dstack_apps.find((a) => a.app_id === appId);
      assert.ok(app, JSON.stringify(list));
      assert.equal(app.current_cvm.name, name);
      assert.equal(app.cvm_count, 1);
      const searched = await getAppList(sdk, { search: name, status: ["running"] });
      assert.deepEqual(searched.dstack_apps.map((a) => a.app_id), [appId]);
      const none = await getAppList(sdk, { search: "no-such-app-anywhere" });
      assert.equal(none.total, 0);

      const info = await getAppInfo(sdk, { appId });
      assert.equal(info.app_id, appId);
      assert.equal(info.kms_type, "phala");
      assert.equal(info.cvms.length, 1);

      const cvms = await getAppCvms(sdk, { appId });
      assert.equal(cvms.length, 1);
      assert.equal(cvms[0].name, name);
      if (legacy) {
        assert.equal(cvms[0].hosted.id, created.vm_uuid);
      } else {
        assert.match(cvms[0].id, /^cvm_/);
      }
    });

    test("getAppRevisions and getAppRevisionDetail: newest first, with references", async () => {
      const page = await getAppRevisions(sdk, { appId, page: 1, page_size: 10 });
      assert.equal(page.total, 2);
      assert.deepEqual(page.revisions.map((r) => r.operation_type), ["update_compose", "create"]);
      const newest = page.revisions[0];
      assert.equal(newest.triggered_by.object_type, "user");
      assert.equal(newest.cvm.id, String(created.id));
      assert.equal(newest.cvm.name, name);
      const detail = await getAppRevisionDetail(sdk, { appId, revisionId: newest.revision_id });
      assert.equal(detail.compose_hash, newest.compose_hash);
      assert.equal(detail.compose_file.docker_compose_file, UPDATED_COMPOSE);
      const raw = await getAppRevisionDetail(sdk, { appId, revisionId: newest.revision_id, rawComposeFile: true });
      assert.equal(typeof raw.compose_file, "string");
    });

    test("createAppInstance adds a CVM to the app, reachable by its integer id", async () => {
      const vm = await createAppInstance(sdk, { appId });
      assert.equal(typeof vm.id, "number");
      assert.notEqual(vm.id, created.id);
      assert.equal(vm.app_id, appId);
      assert.equal(vm.status, "pending");
      assert.equal(vm.docker_compose_file, UPDATED_COMPOSE, "a new instance copies the app's current compose");
      await awaitRunning(sdk, String(vm.id));
      const cvms = await getAppCvms(sdk, { appId });
      assert.deepEqual(cvms.map((cvm) => cvm.name), [name, vm.name]);
    });
  });
}
