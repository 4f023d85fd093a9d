package com.statefulcvm.simulator.backend;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.cloud.CvmTransition;
import com.statefulcvm.simulator.cloud.CvmTransitionListener;
import com.statefulcvm.simulator.cloud.GatewayTarget;

/**
 * Simulated CVMs backed by real local processes ({@code simulator.backends.<cvm name>}). The CVM's lifecycle drives
 * the process: entering {@code running} runs the {@code start} command, leaving it (stop, shutdown, restart, update,
 * redeploy, delete) runs {@code stop}, an admin crash runs {@code kill}, and a delete then runs {@code delete} (the
 * CVM's disk is gone with it, as on Phala: a CVM made later under the same name starts empty). The commands of one CVM run one after the
 * other on its own thread, in the order of the transitions (so a restart's start always follows its stop), each with
 * a timeout, their output logged and kept ({@link #status()}); the simulated cloud never waits for them, and a command
 * that fails or hangs changes nothing but its own result.
 * <p>
 * The gateway proxies a backed CVM's mapped ports to the process ({@link #route}): only while the CVM runs settled
 * and none of its commands is queued or running, so a caller never reaches a process that is being stopped, nor one
 * that a restart has not started yet; in those gaps the route answers 502 as a stopped CVM's does.
 */
public class ProcessBackends implements CvmTransitionListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProcessBackends.class);

    /** Results kept per CVM for the admin endpoint. */
    static final int KEPT_RESULTS = 20;
    /** Output kept per result, from its end. */
    static final int KEPT_OUTPUT_CHARS = 4000;

    private final Map<String, Backend> backends = new LinkedHashMap<>();

    public ProcessBackends(Map<String, SimulatorProperties.Backend> configured) {
        configured.forEach((cvm, settings) -> backends.put(cvm, new Backend(cvm, settings)));
        if (!backends.isEmpty()) {
            log.info("simulated CVMs backed by local processes: {}", backends.keySet());
        }
    }

    public boolean isEmpty() {
        return backends.isEmpty();
    }

    /** Queues the command the transition calls for; returns at once (called under the cloud's lock). */
    @Override
    public void onTransition(CvmTransition transition) {
        Backend backend = backends.get(transition.cvm());
        if (backend == null) {
            return;
        }
        if (transition.crash()) {
            backend.submit(Action.KILL, transition);
        } else if (transition.entersRunning()) {
            backend.submit(Action.START, transition);
        } else if (transition.leavesRunning()) {
            backend.submit(Action.STOP, transition);
        }
        if (transition.deletes()) {
            backend.submit(Action.DELETE, transition);
        }
    }

    /**
     * Runs the start command of every backed CVM that already runs, e.g. after the state file was loaded (the commands
     * are expected to do nothing when the process already runs).
     */
    public void startRunning(Collection<String> runningCvmNames) {
        for (String cvm : runningCvmNames) {
            Backend backend = backends.get(cvm);
            if (backend != null) {
                backend.submit(Action.START, new CvmTransition(cvm, null, null, CvmTransition.RUNNING, false));
            }
        }
    }

    /** Where the gateway sends a request for this route. */
    public sealed interface Route {
    }

    /** No CVM behind the route maps the port: the simulated gateway answers as usual. */
    public record NotBacked() implements Route {
    }

    /** A CVM behind the route maps the port, but none runs settled with its commands done: 502. */
    public record NoUpstream(String cvm) implements Route {
    }

    /** Proxy to this local port. */
    public record Proxy(String cvm, int localPort, Duration requestTimeout) implements Route {
    }

    /**
     * The first CVM behind the route (the one CVM of an instance route, the app's CVMs oldest first for an app route)
     * that maps the port, runs settled and has no command queued or running.
     */
    public Route route(Optional<GatewayTarget> target) {
        if (target.isEmpty() || backends.isEmpty()) {
            return new NotBacked();
        }
        String backedCvm = null;
        for (GatewayTarget.RoutedCvm cvm : target.get().cvms()) {
            Backend backend = backends.get(cvm.name());
            Integer localPort = backend == null ? null : backend.settings.getPorts().get(target.get().port());
            if (localPort == null) {
                continue;
            }
            if (cvm.running() && backend.idle()) {
                return new Proxy(cvm.name(), localPort, backend.settings.getRequestTimeout());
            }
            if (backedCvm == null) {
                backedCvm = cvm.name();
            }
        }
        return backedCvm == null ? new NotBacked() : new NoUpstream(backedCvm);
    }

    /** Every backend with its ports, commands, whether a command is queued or running, and its latest results. */
    public List<Map<String, Object>> status() {
        List<Map<String, Object>> answer = new ArrayList<>();
        backends.values().forEach(backend -> answer.add(backend.status()));
        return answer;
    }

    /** One backend's status; empty when the CVM is not backed. */
    public Optional<Map<String, Object>> status(String cvm) {
        return Optional.ofNullable(backends.get(cvm)).map(Backend::status);
    }

    /** Forgets the results (reset); queued and running commands go on. */
    public void clearResults() {
        backends.values().forEach(Backend::clearResults);
    }

    @Override
    public void close() {
        backends.values().forEach(backend -> backend.executor.shutdownNow());
    }

    enum Action {
        START, STOP, KILL, DELETE;

        String wireName() {
            return name().toLowerCase();
        }
    }

    /** One backed CVM: its settings, its command thread and its results. */
    private static final class Backend {

        final String cvm;
        final SimulatorProperties.Backend settings;
        final ExecutorService executor;
        final AtomicInteger inFlight = new AtomicInteger();
        final Deque<BackendCommandResult> results = new ArrayDeque<>();

        Backend(String cvm, SimulatorProperties.Backend settings) {
            this.cvm = cvm;
            this.settings = settings;
            this.executor = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "simulator-backend-" + cvm);
                thread.setDaemon(true);
                return thread;
            });
        }

        boolean idle() {
            return inFlight.get() == 0;
        }

        String command(Action action) {
            return switch (action) {
                case START -> settings.getStart();
                case STOP -> settings.getStop();
                case KILL -> blank(settings.getKill()) ? settings.getStop() : settings.getKill();
                case DELETE -> settings.getDelete();
            };
        }

        void submit(Action action, CvmTransition transition) {
            String command = command(action);
            if (blank(command)) {
                log.debug("backend {}: no {} command for {} -> {}", cvm, action.wireName(), transition.from(),
                        transition.to());
                return;
            }
            log.info("backend {}: {} (CVM {} -> {})", cvm, action.wireName(), transition.from(), transition.to());
            inFlight.incrementAndGet();
            try {
                executor.execute(() -> {
                    try {
                        record(run(action, command));
                    } finally {
                        inFlight.decrementAndGet();
                    }
                });
            } catch (RejectedExecutionException closed) {
                inFlight.decrementAndGet();
                log.warn("backend {}: closed, {} not run", cvm, action.wireName());
            }
        }

        private BackendCommandResult run(Action action, String command) {
            Instant started = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            long t0 = System.nanoTime();
            Path output = null;
            try {
                output = Files.createTempFile("simulator-backend-", ".log");
                // output to a file, not a pipe: a daemon the command leaves behind may keep a pipe open for ever
                ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                if (settings.getWorkingDirectory() != null) {
                    builder.directory(settings.getWorkingDirectory().toFile());
                }
                builder.environment().put("SIMULATOR_CVM", cvm);
                builder.environment().put("SIMULATOR_ACTION", action.wireName());
                Process process = builder.start();
                long timeoutMs = settings.getCommandTimeout().toMillis();
                boolean finished = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
                if (!finished) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String text = tail(output);
                if (!finished) {
                    return new BackendCommandResult(cvm, action.wireName(), command, started.toString(), ms, null,
                            "timeout", text);
                }
                int exit = process.exitValue();
                return new BackendCommandResult(cvm, action.wireName(), command, started.toString(), ms, exit,
                        exit == 0 ? "ok" : "failed", text);
            } catch (IOException e) {
                return new BackendCommandResult(cvm, action.wireName(), command, started.toString(),
                        (System.nanoTime() - t0) / 1_000_000, null, "error", String.valueOf(e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new BackendCommandResult(cvm, action.wireName(), command, started.toString(),
                        (System.nanoTime() - t0) / 1_000_000, null, "error", "interrupted (simulator closing)");
            } finally {
                if (output != null) {
                    try {
                        Files.deleteIfExists(output);
                    } catch (IOException e) {
                        log.debug("could not delete {}", output, e);
                    }
                }
            }
        }

        private void record(BackendCommandResult result) {
            String output = result.output() == null || result.output().isBlank() ? ""
                    : "\n" + result.output().stripTrailing().indent(4).stripTrailing();
            if (result.ok()) {
                log.info("backend {}: {} ok in {} ms: {}{}", cvm, result.action(), result.durationMs(),
                        result.command(), output);
            } else {
                log.warn("backend {}: {} {} (exit {}) after {} ms: {}{}", cvm, result.action(), result.outcome(),
                        result.exitCode(), result.durationMs(), result.command(), output);
            }
            synchronized (results) {
                results.addLast(result);
                while (results.size() > KEPT_RESULTS) {
                    results.removeFirst();
                }
            }
        }

        Map<String, Object> status() {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("cvm", cvm);
            answer.put("ports", settings.getPorts());
            answer.put("start", settings.getStart());
            answer.put("stop", settings.getStop());
            answer.put("kill", blank(settings.getKill()) ? settings.getStop() : settings.getKill());
            answer.put("delete", settings.getDelete());
            answer.put("busy", !idle());
            answer.put("inFlight", inFlight.get());
            synchronized (results) {
                answer.put("results", List.copyOf(results));
            }
            return answer;
        }

        void clearResults() {
            synchronized (results) {
                results.clear();
            }
        }

        private static String tail(Path file) throws IOException {
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readAllBytes();
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            return text.length() <= KEPT_OUTPUT_CHARS ? text : "…" + text.substring(text.length() - KEPT_OUTPUT_CHARS);
        }

        private static boolean blank(String text) {
            return text == null || text.isBlank();
        }
    }
}
