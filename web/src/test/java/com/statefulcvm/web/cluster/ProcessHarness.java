package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Starts the built jars as real operating-system processes for the integration tests, in a run directory of their
 * own under {@code web/target/cluster-it/} (logs, data and configuration stay there for a look after a failure), and
 * ends every one of them on {@link #close()}, also when the test fails or the test JVM is shut down.
 *
 * <p>The jars are copied into the run directory first: several people build in the same tree, and a jar rebuilt
 * under a running JVM breaks its class loading.
 */
final class ProcessHarness implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path runDir;
    private final Path appJar;
    private final Path simulatorJar;
    private final List<Launched> launched = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::destroyAll, "process-harness-cleanup");

    ProcessHarness(String testName) throws IOException {
        Path webDir = webModuleDir();
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path base = Paths.get(System.getProperty("orch.it.dir", webDir.resolve("target/cluster-it").toString()));
        runDir = Files.createDirectories(base.resolve(testName + "-" + stamp)).toAbsolutePath();
        Path jars = Files.createDirectories(runDir.resolve("jars"));
        appJar = copy(Paths.get(System.getProperty("orch.app.jar", webDir.resolve("target/stateful-cvm-orchestrator.jar").toString())), jars);
        simulatorJar = copy(simulatorJar(webDir), jars);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        log("run directory " + runDir);
    }

    Path runDir() {
        return runDir;
    }

    /** The repository's root (for its {@code config/} profiles). */
    static Path repoDir() {
        return Paths.get(System.getProperty("orch.repo.dir", webModuleDir().getParent().toString())).toAbsolutePath();
    }

    private static Path webModuleDir() {
        Path cwd = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        return Files.isDirectory(cwd.resolve("web/src")) ? cwd.resolve("web") : cwd;
    }

    private static Path simulatorJar(Path webDir) throws IOException {
        String configured = System.getProperty("orch.simulator.jar");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        try (var files = Files.list(webDir.resolveSibling("simulator").resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("simulator-.*-exec\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no simulator/target/simulator-*-exec.jar: build the simulator first"));
        }
    }

    private static Path copy(Path jar, Path dir) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the integration tests run after `mvn package` (mvn verify)");
        }
        return Files.copy(jar, dir.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    Path appJar() {
        return appJar;
    }

    Path simulatorJar() {
        return simulatorJar;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts {@code java -jar <jar> <args>} in {@code workDir} with the given extra environment (the inherited
     * SPRING_*, ORCHESTRATOR_* and PHALA_* variables are removed so the host's settings do not leak in), output to
     * {@code <name>.log} in the run directory.
     */
    Launched start(String name, Path jar, Path workDir, Map<String, String> env, List<String> args) throws IOException {
        // small and quick to start: what a test of behaviour needs
        return start(name, jar, workDir, env, List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), args);
    }

    /** The same with the JVM's own options (a benchmark runs the JVM as production would). */
    Launched start(String name, Path jar, Path workDir, Map<String, String> env, List<String> jvmOptions, List<String> args)
            throws IOException {
        Files.createDirectories(workDir);
        Path logFile = runDir.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(javaBinary()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Djava.io.tmpdir=" + Files.createDirectories(workDir.resolve("tmp")), "-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().keySet().removeIf(k -> k.startsWith("SPRING_") || k.startsWith("ORCHESTRATOR_")
                || k.startsWith("PHALA_") || k.startsWith("SIMULATOR_") || k.startsWith("CAMUNDA_"));
        builder.environment().putAll(env);
        Files.writeString(logFile, "==== " + LocalDateTime.now() + " " + String.join(" ", command) + "\n",
                StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        Launched process = new Launched(name, builder.start(), logFile);
        synchronized (launched) {
            launched.add(process);
        }
        log("started " + name + " (pid " + process.pid() + ")");
        return process;
    }

    private static String javaBinary() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Prints the last lines of every log, for a failed test. */
    void dumpLogs(int lines) {
        synchronized (launched) {
            for (Launched process : launched) {
                System.out.println("---- last " + lines + " lines of " + process.log);
                System.out.println(process.tail(lines));
            }
        }
    }

    private void destroyAll() {
        synchronized (launched) {
            for (Launched process : launched) {
                process.process.destroyForcibly();
            }
            for (Launched process : launched) {
                try {
                    process.process.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        synchronized (launched) {
            for (Launched process : launched) {
                if (process.process.isAlive()) {
                    log("WARNING: " + process.name + " (pid " + process.pid() + ") is still alive");
                }
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        // the copied jars are 100 MB a run; the logs and data stay for a look
        try (var jars = Files.list(runDir.resolve("jars"))) {
            for (Path jar : jars.toList()) {
                Files.deleteIfExists(jar);
            }
        } catch (IOException e) {
            log("could not delete the copied jars: " + e);
        }
    }

    static void log(String message) {
        System.out.printf("[%s] %s%n", LocalDateTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss.SSS")), message);
    }

    /** Polls every 100 ms until the condition holds; fails with the description after the timeout. */
    static void waitUntil(Duration timeout, String what, BooleanSupplier condition) {
        org.awaitility.Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(100)).until(condition::getAsBoolean);
    }

    /** One started JVM. */
    static final class Launched {
        final String name;
        final Process process;
        final Path log;

        Launched(String name, Process process, Path log) {
            this.name = name;
            this.process = process;
            this.log = log;
        }

        long pid() {
            return process.pid();
        }

        boolean alive() {
            return process.isAlive();
        }

        /** SIGKILL, as {@code kill -9}: no shutdown hook, no orderly close of anything. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " did not die after SIGKILL");
            }
        }

        String tail(int lines) {
            try {
                List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
                return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
            } catch (IOException | UncheckedIOException e) {
                return "(cannot read " + log + ": " + e + ")";
            }
        }

        /** Fails at once, with the log, when the process has died. */
        void assertAlive() {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + "; last lines of its log:\n" + tail(60));
            }
        }
    }

    /** A small HTTP client for one base URL, with optional basic auth. */
    static final class Http {
        private final String base;
        private final String authorization;

        Http(String base, String user, String password) {
            this.base = base;
            this.authorization = user == null ? null
                    : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        }

        String base() {
            return base;
        }

        HttpResponse<String> get(String path, Map<String, String> headers) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), headers);
        }

        HttpResponse<String> delete(String path) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE(), Map.of());
        }

        HttpResponse<String> put(String path) throws IOException, InterruptedException {
            return send(HttpRequest.newBuilder(URI.create(base + path)).PUT(HttpRequest.BodyPublishers.noBody()), Map.of());
        }

        HttpResponse<String> get(String path) throws IOException, InterruptedException {
            return get(path, Map.of());
        }

        JsonNode getJson(String path) throws IOException, InterruptedException {
            return getJson(path, Map.of());
        }

        JsonNode getJson(String path, Map<String, String> headers) throws IOException, InterruptedException {
            HttpResponse<String> response = get(path, headers);
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + base + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        }

        HttpResponse<String> postJson(String path, Object body) throws IOException, InterruptedException {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", "application/json");
            return send(HttpRequest.newBuilder(URI.create(base + path))
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))), headers);
        }

        /** True when the URL answers at all (any status). */
        boolean answers(String path) {
            try {
                get(path);
                return true;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private HttpResponse<String> send(HttpRequest.Builder request, Map<String, String> headers) throws IOException, InterruptedException {
            request.timeout(Duration.ofSeconds(15));
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            headers.forEach(request::header);
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
