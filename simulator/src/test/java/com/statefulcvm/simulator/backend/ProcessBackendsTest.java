package com.statefulcvm.simulator.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.cloud.CvmTransition;
import com.statefulcvm.simulator.cloud.GatewayTarget;
import com.statefulcvm.simulator.cloud.GatewayTarget.RoutedCvm;

/** Which command each transition runs, in which order, and how failures, hangs and routes come out; no Spring. */
class ProcessBackendsTest {

    @TempDir
    Path dir;

    private ProcessBackends backends;

    @AfterEach
    void close() {
        if (backends != null) {
            backends.close();
        }
    }

    private SimulatorProperties.Backend backend(String start, String stop, String kill) {
        SimulatorProperties.Backend backend = new SimulatorProperties.Backend();
        backend.setStart(start);
        backend.setStop(stop);
        backend.setKill(kill);
        backend.setWorkingDirectory(dir);
        backend.setPorts(new java.util.LinkedHashMap<>(Map.of(8008, 18008)));
        return backend;
    }

    /** Each command appends its action (and the SIMULATOR_* variables) to actions.log in the working directory. */
    private SimulatorProperties.Backend recording() {
        return backend("echo start $SIMULATOR_CVM >> actions.log", "sleep 0.2; echo stop >> actions.log",
                "echo kill $SIMULATOR_ACTION >> actions.log");
    }

    private List<String> actions() throws IOException {
        Path log = dir.resolve("actions.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private static CvmTransition t(String from, String to) {
        return new CvmTransition("db-0", "uuid", from, to, false);
    }

    private void awaitIdle() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !(Boolean) backends.status("db-0").orElseThrow().get("busy"));
    }

    @SuppressWarnings("unchecked")
    private List<BackendCommandResult> results() {
        return (List<BackendCommandResult>) backends.status("db-0").orElseThrow().get("results");
    }

    @Test
    void theLifecycleRunsStartStopAndKillInTheOrderOfTheTransitions() throws IOException {
        backends = new ProcessBackends(Map.of("db-0", recording()));
        backends.onTransition(t(null, "creating"));
        backends.onTransition(t("creating", "starting"));
        backends.onTransition(t("starting", "running"));      // start
        backends.onTransition(t("running", "restarting"));    // stop: sleeps, yet the start after it waits
        backends.onTransition(t("restarting", "running"));    // start
        backends.onTransition(t("running", "updating"));      // stop
        backends.onTransition(t("updating", "running"));      // start
        backends.onTransition(new CvmTransition("db-0", "uuid", "running", "stopped", true));   // crash: kill
        backends.onTransition(t("stopped", "deleting"));      // not running: nothing to stop
        backends.onTransition(new CvmTransition("other", "uuid2", "starting", "running", false)); // not backed
        awaitIdle();

        assertThat(actions()).containsExactly("start db-0", "stop", "start db-0", "stop", "start db-0", "kill kill");
        assertThat(results()).extracting(BackendCommandResult::action)
                .containsExactly("start", "stop", "start", "stop", "start", "kill");
        assertThat(results()).allMatch(BackendCommandResult::ok);
    }

    @Test
    void aDeleteStopsTheProcessThenRunsTheDeleteCommandForItsDisk() throws IOException {
        SimulatorProperties.Backend backend = recording();
        backend.setDelete("echo delete $SIMULATOR_ACTION >> actions.log");
        backends = new ProcessBackends(Map.of("db-0", backend));
        backends.onTransition(t("starting", "running"));     // start
        backends.onTransition(t("running", "deleting"));     // stop
        backends.onTransition(t("deleting", "deleted"));     // delete: the disk goes
        awaitIdle();
        assertThat(actions()).containsExactly("start db-0", "stop", "delete delete");
        assertThat(backends.status("db-0").orElseThrow().get("delete")).isEqualTo("echo delete $SIMULATOR_ACTION >> actions.log");
    }

    @Test
    void killFallsBackToStopAndMissingCommandsAreSkipped() throws IOException {
        backends = new ProcessBackends(Map.of("db-0", backend(null, "echo stop >> actions.log", null)));
        backends.onTransition(t("starting", "running"));
        backends.onTransition(new CvmTransition("db-0", "uuid", "running", "stopped", true));
        awaitIdle();
        assertThat(actions()).containsExactly("stop");
    }

    @Test
    void aFailingCommandIsReportedWithItsOutputAndAHangingOneIsKilledAtItsTimeout() {
        SimulatorProperties.Backend settings = backend("echo boom >&2; exit 3", "sleep 30", null);
        settings.setCommandTimeout(Duration.ofMillis(300));
        backends = new ProcessBackends(Map.of("db-0", settings));
        long t0 = System.nanoTime();
        backends.onTransition(t("starting", "running"));
        backends.onTransition(t("running", "stopping"));
        awaitIdle();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("never waits for the hanging command").isLessThan(8000);

        BackendCommandResult start = results().get(0);
        assertThat(start.outcome()).isEqualTo("failed");
        assertThat(start.exitCode()).isEqualTo(3);
        assertThat(start.output()).contains("boom");
        BackendCommandResult stop = results().get(1);
        assertThat(stop.outcome()).isEqualTo("timeout");
        assertThat(stop.exitCode()).isNull();
        assertThat(stop.durationMs()).isLessThan(6000);
    }

    @Test
    void routesProxyOnlyAMappedPortOfARunningIdleBackedCvm() throws IOException {
        // the start command runs until the test lets it end: "while it runs" holds however slow the machine is
        backends = new ProcessBackends(Map.of("db-0", backend("while [ ! -f go ]; do sleep 0.05; done", null, null)));
        GatewayTarget running = new GatewayTarget(8008, false, List.of(new RoutedCvm("db-0", true)));

        assertThat(backends.route(Optional.of(running))).isEqualTo(
                new ProcessBackends.Proxy("db-0", 18008, Duration.ofSeconds(30)));
        assertThat(backends.route(Optional.of(new GatewayTarget(8080, false, List.of(new RoutedCvm("db-0", true))))))
                .as("an unmapped port").isInstanceOf(ProcessBackends.NotBacked.class);
        assertThat(backends.route(Optional.of(new GatewayTarget(8008, false, List.of(new RoutedCvm("db-0", false))))))
                .as("not running").isEqualTo(new ProcessBackends.NoUpstream("db-0"));
        assertThat(backends.route(Optional.of(new GatewayTarget(8008, false, List.of(new RoutedCvm("db-9", true))))))
                .as("not backed").isInstanceOf(ProcessBackends.NotBacked.class);
        assertThat(backends.route(Optional.empty())).isInstanceOf(ProcessBackends.NotBacked.class);

        backends.onTransition(t("starting", "running"));
        assertThat(backends.route(Optional.of(running))).as("while its start command runs")
                .isEqualTo(new ProcessBackends.NoUpstream("db-0"));
        Files.writeString(dir.resolve("go"), "");
        awaitIdle();
        assertThat(backends.route(Optional.of(running))).isInstanceOf(ProcessBackends.Proxy.class);
    }

    @Test
    void anAppRouteReachesTheFirstRunningBackedCvm() {
        backends = new ProcessBackends(Map.of("db-0", backend(null, null, null), "db-1", backend(null, null, null)));
        GatewayTarget app = new GatewayTarget(8008, true, List.of(new RoutedCvm("db-0", false),
                new RoutedCvm("db-1", true), new RoutedCvm("web-0", true)));
        assertThat(backends.route(Optional.of(app))).isEqualTo(
                new ProcessBackends.Proxy("db-1", 18008, Duration.ofSeconds(30)));
    }

    @Test
    void startRunningStartsTheBackedCvmsThatAlreadyRun() throws IOException {
        backends = new ProcessBackends(Map.of("db-0", recording()));
        backends.startRunning(List.of("web-0", "db-0"));
        awaitIdle();
        assertThat(actions()).containsExactly("start db-0");
    }
}
