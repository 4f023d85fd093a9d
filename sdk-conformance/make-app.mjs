// Makes or changes an app in a simulator with Phala's official SDK, the way Terraform's provider and the CLI do,
// for tests that need a cluster nobody here made (web's AdoptionRehearsalIT). Prints one JSON line.
//   node sdk-conformance/make-app.mjs create '{"name": "dbnode-a", "compose": "...", "members": ["dbnode-b", null]}'
//     provisionCvm + commitCvmProvision (the app's first CVM, named "name"), then one createAppInstance per member,
//     each renamed to it as the provider does (PATCH /cvms/{id}/name), or left as the service named it (null);
//     one create at a time, each waited for until it runs. Prints {"appId", "cvms": [{"id", "name"}]}.
//   node sdk-conformance/make-app.mjs update-compose '{"cvms": ["cvm_..."], "compose": "..."}'
//     updateDockerCompose on each CVM at once, as `terraform apply` of a changed docker_compose does; waits until
//     each runs it. Prints {"updated": [...]}.
// SIMULATOR_URL and SIMULATOR_API_KEY say where.
import { commitCvmProvision, createAppInstance, getCvmInfo, getCvmState, provisionCvm, updateDockerCompose } from "@phala/cloud";
import { API_KEY, API_PREFIX, client, eventually } from "./test/support.mjs";

const VERSION = "2026-01-21";
const [command, argument] = process.argv.slice(2);
const input = JSON.parse(argument ?? "{}");
const sdk = client(VERSION);

const running = (id) => eventually(`${id} running`, async () => {
  const state = await getCvmState(sdk, { id });
  return state.status === "running" && !state.in_progress;
}, { timeoutMs: 60_000, intervalMs: 200 });

/** The provider's rename: not in the SDK, by the hashed id (its design note). */
async function rename(id, name) {
  const response = await fetch(`${API_PREFIX}/cvms/${id}/name`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", "X-API-Key": API_KEY, "X-Phala-Version": VERSION },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 204) {
    throw new Error(`rename ${id} to ${name}: ${response.status} ${await response.text()}`);
  }
}

async function create() {
  const provision = await provisionCvm(sdk, { name: input.name, compose_file: { docker_compose_file: input.compose } });
  const committed = await commitCvmProvision(sdk, { app_id: provision.app_id, compose_hash: provision.compose_hash });
  const appId = committed.app_id;
  await running(input.name);
  const first = await getCvmInfo(sdk, { id: input.name });
  const cvms = [{ id: first.id, name: input.name }];
  for (const member of input.members ?? []) {
    const instance = await createAppInstance(sdk, { appId });
    const info = await getCvmInfo(sdk, { id: instance.name });
    await running(info.id);
    if (member) {
      await rename(info.id, member);
    }
    cvms.push({ id: info.id, name: member ?? instance.name });
  }
  return { appId, cvms };
}

async function updateCompose() {
  await Promise.all(input.cvms.map((id) => updateDockerCompose(sdk, { id, docker_compose_file: input.compose })));
  for (const id of input.cvms) {
    await eventually(`${id} runs the new compose`, async () => {
      const info = await getCvmInfo(sdk, { id });
      return info.compose_file?.docker_compose_file === input.compose && info.status === "running";
    }, { timeoutMs: 60_000, intervalMs: 200 });
  }
  return { updated: input.cvms };
}

const commands = { create, "update-compose": updateCompose };
if (!commands[command]) {
  console.error(`usage: make-app.mjs create|update-compose '<json>'`);
  process.exit(2);
}
console.log(JSON.stringify(await commands[command]()));
