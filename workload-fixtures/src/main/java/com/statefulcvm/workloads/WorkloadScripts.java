package com.statefulcvm.workloads;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Runs the scripts of the repository's {@code workloads/} folder (real etcd, Patroni and PostgreSQL on loopback) and
 * checks, as JUnit assumptions, that the binaries they need are installed ({@code .ci/run} installs them).
 */
public final class WorkloadScripts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WorkloadScripts() {
    }

    /** The repository's {@code workloads/} folder, found from the module's working directory upwards. */
    public static Path directory() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("workloads");
            if (Files.isRegularFile(candidate.resolve("etcd-cluster.sh"))) {
                return candidate;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no workloads/etcd-cluster.sh above " + Path.of("").toAbsolutePath());
    }

    public static Path script(String name) {
        return directory().resolve(name);
    }

    /** A fresh directory for a fixture's data under this module's {@code target/workloads/}. */
    /** The CVM port of a member's hold-back agent on the gateway routes (lights-out.sequence-port and release-path). */
    public static final int HOLD_PORT = 9000;

    /**
     * {@code backends} with each CVM started through its member's hold-back agent (the script's {@code startHeld}
     * command) and the CVM's port {@value #HOLD_PORT} reaching the agent's local port.
     */
    public static Map<String, String> heldBackends(Map<String, String> backends, String script, String startHeld, Path dir,
                                                   Map<String, Integer> holdPorts) {
        Map<String, String> properties = new java.util.LinkedHashMap<>(backends);
        holdPorts.forEach((member, holdPort) -> {
            String prefix = "simulator.backends." + member + ".";
            properties.put(prefix + "start", commandLine(script, startHeld, dir.toString(), member));
            properties.put(prefix + "ports." + HOLD_PORT, Integer.toString(holdPort));
        });
        return properties;
    }

    /** A hold-back agent's releases ("<ISO time> released: ..."), in order, from {@code holdback.events} in the member's directory. */
    public static java.util.List<String> holdbackReleases(Path memberDirectory) {
        Path events = memberDirectory.resolve("holdback.events");
        try {
            return java.nio.file.Files.exists(events)
                    ? java.nio.file.Files.readAllLines(events).stream().filter(line -> line.contains(" released: ")).toList()
                    : java.util.List.of();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static Path dataDirectory(String name) {
        return Path.of("target", "workloads", name).toAbsolutePath();
    }

    public static final String ETCD_MISSING =
            "etcd (Debian package etcd-server) or curl is not installed: skipped; .ci/run installs them";
    public static final String PATRONI_MISSING = "patroni, postgresql or etcd-server (Debian packages) is not "
            + "installed: skipped; .ci/run installs them";

    public static final String GALERA_MISSING = "mariadb-server, galera-4 or rsync (Debian packages) is not installed, or"
            + " the tests do not run as root (the servers run as mysql): skipped; .ci/run installs them";

    /** For {@code @EnabledIf}: Debian's MariaDB server, the Galera provider and rsync, and root to run them as mysql. */
    public static boolean galeraInstalled() {
        return Files.isExecutable(Path.of("/usr/sbin/mariadbd")) && Files.exists(Path.of("/usr/lib/galera/libgalera_smm.so"))
                && onPath("rsync") != null && onPath("mariadb") != null && "root".equals(System.getProperty("user.name"));
    }

    /** For {@code @EnabledIf}: Debian's etcd-server and curl are installed. */
    public static boolean etcdInstalled() {
        return onPath("etcd") != null && onPath("curl") != null;
    }

    /** For {@code @EnabledIf}: Patroni, the PostgreSQL server, etcd and curl are installed. */
    public static boolean patroniInstalled() {
        return etcdInstalled() && onPath("patroni") != null && Files.isExecutable(Path.of("/usr/bin/python3"))
                && postgresBinDir() != null;
    }

    /** Skips the test (JUnit assumption) unless Debian's etcd-server is installed. */
    public static void assumeEtcd() {
        assumeTrue(etcdInstalled(), ETCD_MISSING);
    }

    /** Skips the test unless Patroni, the PostgreSQL server and etcd are installed. */
    public static void assumePatroni() {
        assumeTrue(patroniInstalled(), PATRONI_MISSING);
    }

    static Path onPath(String command) {
        String path = System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    static Path postgresBinDir() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(bin -> Files.isExecutable(bin.resolve("postgres")))
                    .findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** What a script printed and how it ended. */
    public record Result(int exitCode, String output) {
        public Result requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed (exit " + exitCode + "):\n" + output);
            }
            return this;
        }

        /** The last line of the output that is a JSON object (the scripts print their answer last). */
        public JsonNode json() {
            List<String> lines = output.lines().filter(l -> l.startsWith("{")).toList();
            if (lines.isEmpty()) {
                throw new IllegalStateException("no JSON line in:\n" + output);
            }
            try {
                return JSON.readTree(lines.get(lines.size() - 1));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("not JSON: " + lines.get(lines.size() - 1), e);
            }
        }
    }

    /** Runs {@code bash workloads/<script> args...}, output (stdout and stderr) to a file, within the timeout. */
    public static Result run(long timeoutSeconds, String script, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", script(script).toString()));
        command.addAll(List.of(args));
        Path output = null;
        try {
            output = Files.createTempFile("workload-script-", ".log");
            // a file, not a pipe: the daemons a script starts must never hold our pipe open
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " timed out after " + timeoutSeconds
                        + " s:\n" + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }

    /** A shell command line for the simulator's backend settings: {@code bash '<script>' args...}, quoted. */
    public static String commandLine(String script, String... args) {
        StringBuilder line = new StringBuilder("bash ").append(quote(script(script).toString()));
        for (String arg : args) {
            line.append(' ').append(quote(arg));
        }
        return line.toString();
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
