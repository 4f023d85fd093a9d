package com.statefulcvm.web.cluster;

import com.statefulcvm.web.cluster.ChaosCheck.CvmSeen;
import com.statefulcvm.web.cluster.ChaosCheck.Event;
import com.statefulcvm.web.cluster.ChaosCheck.Intent;
import com.statefulcvm.web.cluster.ChaosCheck.Observations;
import com.statefulcvm.web.cluster.ChaosCheck.Result;
import com.statefulcvm.web.cluster.ChaosCheck.Row;
import com.statefulcvm.web.cluster.ChaosCheck.Sample;
import com.statefulcvm.web.cluster.ChaosCheck.Writes;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker itself, on journals written by hand: each invariant is broken once and must be reported, and a clean
 * history must give none. A checker that cannot fail proves nothing.
 */
class ChaosCheckTest {

    private static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    private final List<Event> journal = new ArrayList<>();
    private final List<Intent> intents = new ArrayList<>();
    private final List<Sample> samples = new ArrayList<>();
    private final List<Writes> writes = new ArrayList<>();
    private long seq;

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    private void event(int second, String cvm, String from, String to) {
        journal.add(new Event(++seq, at(second), cvm, "vm-" + cvm, from, to));
    }

    /** The fleet created and running before the seed begins (second 0). */
    private void fleetRunning() {
        for (ChaosFleet.Set set : ChaosFleet.SETS) {
            for (int i = 0; i < set.replicas(); i++) {
                event(-100, set.slot(i), null, "pending");
                event(-99, set.slot(i), "pending", "starting");
                event(-98, set.slot(i), "starting", "running");
                intents.add(new Intent("bootstrap/" + set.slot(i) + "/CREATE", set.slot(i), "CREATE", 1, at(-101), "APPLIED", "bootstrap"));
            }
        }
    }

    private void restart(int second, String cvm) {
        event(second, cvm, "running", "restarting");
        event(second + 1, cvm, "restarting", "running");
    }

    private Result check() {
        return ChaosCheck.check(new Observations(T0, journal, Map.of(), intents, samples, writes));
    }

    @Test
    void aCleanHistoryHasNoViolation() {
        fleetRunning();
        intents.add(new Intent("r1/etcd-2#1/RESTART", "etcd-2", "RESTART", 1, at(4), "APPLIED", "rollout"));
        restart(5, "etcd-2");
        intents.add(new Intent("r1/etcd-1#1/UPDATE_COMPOSE/x", "etcd-1", "UPDATE_COMPOSE", 1, at(9), "APPLIED", "rollout"));
        event(10, "etcd-1", "running", "updating");
        event(12, "etcd-1", "updating", "running");
        event(20, "web-3", "running", "stopped"); // a crash
        intents.add(new Intent("h1/web-3#1/START", "web-3", "START", 1, at(25), "APPLIED", "heal"));
        event(26, "web-3", "stopped", "starting");
        event(27, "web-3", "starting", "running");
        samples.add(new Sample(at(40), List.of(new CvmSeen("web-3", "vm-web-3", "i-3", "running")),
                List.of(new Row("web", 3, "i-3", "running", true, true, at(30), at(35), true, false))));
        writes.add(new Writes("etcd", 120, Set.of()));
        Result result = check();
        assertThat(result.count()).as(result.violations().toString()).isZero();
        assertThat(result.figures()).containsEntry("slots taken down by the orchestrator", 2).containsEntry("effects in the journal", 3);
    }

    @Test
    void aRestartMadeTwiceForOneIntentIsAnEffectAppliedTwice() {
        fleetRunning();
        intents.add(new Intent("r1/web-1#1/RESTART", "web-1", "RESTART", 1, at(4), "APPLIED", "rollout"));
        restart(5, "web-1");
        restart(15, "web-1");
        assertThat(check().violations().get("effect applied twice")).singleElement().asString().contains("r1/web-1#1/RESTART");
    }

    @Test
    void anEffectNobodyIntendedIsReported() {
        fleetRunning();
        restart(5, "web-0");
        assertThat(check().violations().get("effect without intent")).singleElement().asString().contains("web-0");
    }

    @Test
    void takingAnEtcdMemberDownWhileAnotherIsCrashedBreaksTheBudgetAndTheQuorum() {
        fleetRunning();
        event(3, "etcd-0", "running", "stopped");
        intents.add(new Intent("r1/etcd-1#1/UPDATE_COMPOSE/x", "etcd-1", "UPDATE_COMPOSE", 1, at(4), "APPLIED", "rollout"));
        event(5, "etcd-1", "running", "updating");
        Result result = check();
        assertThat(result.violations().get("budget")).singleElement().asString().contains("etcd-1").contains("budget 0");
        assertThat(result.violations().get("quorum")).singleElement().asString().contains("1 of 3 members");
    }

    @Test
    void twoWebSlotsDownByOurHandExceedMaxUnavailable() {
        fleetRunning();
        intents.add(new Intent("r1/web-1#1/RESTART", "web-1", "RESTART", 1, at(4), "APPLIED", "rollout"));
        intents.add(new Intent("h1/web-2#1/RESTART", "web-2", "RESTART", 1, at(4), "APPLIED", "heal"));
        event(5, "web-1", "running", "restarting");
        event(5, "web-2", "running", "restarting");
        assertThat(check().violations().get("budget")).singleElement().asString().contains("web-2");
    }

    @Test
    void aReadyInstanceWithoutAVerdictForItsBootIsServingUnattested() {
        fleetRunning();
        intents.add(new Intent("h1/web-4#1/RESTART", "web-4", "RESTART", 1, at(4), "APPLIED", "heal"));
        restart(5, "web-4");
        samples.add(new Sample(at(20), List.of(), List.of(new Row("web", 4, "i-4", "running", true, true, at(-50), at(15), true, false))));
        assertThat(check().violations().get("serving unattested")).singleElement().asString().contains("web-4");
    }

    @Test
    void oneInstanceIdOnTwoCvmsIsAnIdentityReused() {
        fleetRunning();
        samples.add(new Sample(at(10), List.of(new CvmSeen("web-0", "vm-a", "i-0", "running")), List.of()));
        samples.add(new Sample(at(20), List.of(new CvmSeen("web-0", "vm-b", "i-0", "running")), List.of()));
        assertThat(check().violations().get("identity reused")).singleElement().asString().contains("i-0");
    }

    @Test
    void anAcknowledgedWriteMissingAtTheEndIsLost() {
        fleetRunning();
        writes.add(new Writes("patroni", 300, Set.of(17L)));
        assertThat(check().violations().get("acknowledged write lost")).containsExactly("patroni write 17");
    }
}
