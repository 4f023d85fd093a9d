#!/usr/bin/env node
// Starts the standalone simulator jar on a free loopback port with short timings, waits until it answers, runs
// the conformance tests (node --test) against it, and always stops the jar. Exit code: the tests'.
//
//   node run.mjs                       # uses ../simulator/target/simulator-0.1.0-SNAPSHOT-exec.jar
//   SIMULATOR_JAR=/path/to.jar node run.mjs
//   SIMULATOR_URL=http://127.0.0.1:8081 node run.mjs   # a simulator that is already running (not stopped)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const API_KEY = "phak_sdk_conformance";
const STARTUP_DEADLINE_MS = 90_000;

const jar = resolve(process.env.SIMULATOR_JAR ?? join(here, "..", "simulator", "target", "simulator-0.1.0-SNAPSHOT-exec.jar"));

function log(message) {
  process.stdout.write(`[sdk-conformance] ${message}\n`);
}

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the jar with --server.port=0 and reads the port Tomcat bound from its log. */
function startSimulator() {
  if (!existsSync(jar)) {
    throw new Error(`no simulator jar at ${jar}: build it with 'mvn -B -pl simulator -am install -DskipTests'`);
  }
  const args = [
    "-jar", jar,
    "--server.address=127.0.0.1",
    "--server.port=0",
    `--simulator.api-key=${API_KEY}`,
    "--simulator.timings.create-ms=300",
    "--simulator.timings.start-ms=200",
    "--simulator.timings.stop-ms=200",
    "--simulator.timings.shutdown-ms=200",
    "--simulator.timings.restart-ms=400",
    "--simulator.timings.update-ms=400",
    "--simulator.timings.delete-ms=200",
    "--spring.main.banner-mode=off",
  ];
  const child = spawn("java", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const port = new Promise((resolvePort, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /Tomcat started on port (?:\(s\): )?(\d+)/.exec(output);
      if (match) {
        resolvePort(Number(match[1]));
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`the simulator exited (${code}) before it started:\n${output}`)));
    setTimeout(() => reject(new Error(`the simulator did not start within ${STARTUP_DEADLINE_MS} ms:\n${output}`)),
      STARTUP_DEADLINE_MS).unref();
  });
  return { child, port, output: () => output };
}

function stop(child) {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
  }
}

async function main() {
  for (const pkg of ["@phala/cloud", "phala"]) {
    if (!existsSync(join(here, "node_modules", pkg, "package.json"))) {
      throw new Error(`${pkg} is not installed: run 'npm ci --prefix sdk-conformance --ignore-scripts' first`);
    }
  }
  let simulator = null;
  let baseUrl = process.env.SIMULATOR_URL;
  const started = Date.now();
  const cleanup = () => stop(simulator?.child);
  process.on("exit", cleanup);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      cleanup();
      process.exit(130);
    });
  }
  if (!baseUrl) {
    simulator = startSimulator();
    const port = await simulator.port;
    baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + STARTUP_DEADLINE_MS;
    while (!(await answers(`${baseUrl}/simulator/_admin/timings`))) {
      if (Date.now() > deadline) {
        throw new Error(`the simulator at ${baseUrl} did not answer:\n${simulator.output()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    log(`simulator ${jar} up at ${baseUrl} after ${Date.now() - started} ms`);
  }

  const home = mkdtempSync(join(tmpdir(), "phala-cli-"));
  // contract.test.mjs checks what our Java client sent during the web module's tests (no simulator needed)
  const testFiles = ["test/sdk.test.mjs", "test/sdk-errors.test.mjs", "test/cli.test.mjs", "test/strictness.test.mjs",
    "test/contract.test.mjs"];
  const code = await new Promise((resolveCode) => {
    const tests = spawn(process.execPath,
      ["--test", "--test-concurrency=1", "--test-reporter=spec", ...testFiles],
      {
        cwd: here,
        stdio: "inherit",
        env: {
          ...process.env,
          SIMULATOR_URL: baseUrl,
          SIMULATOR_API_KEY: process.env.SIMULATOR_URL ? (process.env.SIMULATOR_API_KEY ?? API_KEY) : API_KEY,
          CONFORMANCE_HOME: home,
        },
      });
    tests.on("exit", (exitCode, signal) => resolveCode(exitCode ?? (signal ? 1 : 0)));
  });
  rmSync(home, { recursive: true, force: true });
  cleanup();
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s, exit code ${code}`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[sdk-conformance] ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
