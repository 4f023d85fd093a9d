package com.statefulcvm.fleet.failover;

import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.failover.FailoverCandidate.Choice;
import com.statefulcvm.fleet.failover.FailoverCandidate.Replica;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailoverCandidateTest {

    private static Replica replica(String name, String received, String replayed) {
        return new Replica(name, "replica", "running", false, received == null ? null : Lsn.parse(received),
                replayed == null ? null : Lsn.parse(replayed));
    }

    @Test
    void lsnsAreParsedAs64BitNumbersAndComparedUnsigned() {
        assertThat(Lsn.parse("0/5000060").value()).isEqualTo(0x5000060L);
        assertThat(Lsn.parse("16/B374D848").value()).isEqualTo(0x16B374D848L);
        assertThat(Lsn.parse("FFFFFFFF/FFFFFFFF").value()).isEqualTo(-1L);
        assertThat(Lsn.parse("FFFFFFFF/0")).isGreaterThan(Lsn.parse("7FFFFFFF/FFFFFFFF"));
        assertThat(Lsn.parse("1/0")).isGreaterThan(Lsn.parse("0/FFFFFFFF"));
        assertThat(Lsn.parse("16/b374d848")).hasToString("16/B374D848");
        assertThat(Lsn.of(0x5000060L)).hasToString("0/5000060");
        for (String bad : List.of("", "5000060", "/1", "1/", "1/2/3", "G/1", "100000000/0", "-1/0")) {
            assertThatThrownBy(() -> Lsn.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Issue 20: (timeline, LSN) in that order: a replica left on an older timeline is behind whatever its LSN says. */
    @Test
    void aNewerTimelineWinsOverAHigherLsnOnAnOlderOne() {
        Choice choice = FailoverCandidate.choose(List.of(
                new Replica("pg-1", "replica", "streaming", false, 1L, Lsn.parse("0/9000000"), Lsn.parse("0/9000000"), null),
                new Replica("pg-2", "replica", "streaming", false, 2L, Lsn.parse("0/5000000"), Lsn.parse("0/5000000"), null)), "pg-0");
        assertThat(choice.candidateName()).isEqualTo("pg-2");
        assertThat(choice.reason()).startsWith("promote pg-2 (timeline 2, received 0/5000000, replayed 0/5000000)");
    }

    /** Issue 20: a fenced replica is never promoted, however recent its data. */
    @Test
    void aFencedReplicaIsNeverPromoted() {
        Choice choice = FailoverCandidate.choose(List.of(
                new Replica("pg-1", "replica", "streaming", false, 2L, Lsn.parse("0/9000000"), null,
                        "fenced (stopped): attestation failed: QUOTE_INVALID"),
                new Replica("pg-2", "replica", "streaming", false, 2L, Lsn.parse("0/5000000"), null, null)), "pg-0");
        assertThat(choice.candidateName()).isEqualTo("pg-2");
        assertThat(choice.reason()).contains("not pg-1: it is fenced (stopped): attestation failed: QUOTE_INVALID");
        Choice none = FailoverCandidate.choose(List.of(new Replica("pg-1", "replica", "streaming", false, 2L,
                Lsn.parse("0/9000000"), null, "fenced (drained): attestation failed: x")), "pg-0");
        assertThat(none.found()).isFalse();
    }

    @Test
    void theReplicaThatReceivedTheMostWalIsPromoted() {
        Choice choice = FailoverCandidate.choose(List.of(
                new Replica("pg-0", "leader", "running", false, null, null),
                replica("pg-1", "0/5000060", "0/5000060"),
                replica("pg-2", "0/6000000", "0/5000000")), "pg-0");
        assertThat(choice.candidateName()).isEqualTo("pg-2");
        assertThat(choice.reason()).startsWith("promote pg-2 (received 0/6000000, replayed 0/5000000): the most recent data");
    }

    @Test
    void replayedBreaksATieAndTheNameBreaksTheRest() {
        assertThat(FailoverCandidate.choose(List.of(replica("pg-1", "0/6000000", "0/5000000"),
                replica("pg-2", "0/6000000", "0/5800000")), "pg-0").candidateName()).isEqualTo("pg-2");
        assertThat(FailoverCandidate.choose(List.of(replica("pg-2", "0/6000000", "0/6000000"),
                replica("pg-1", "0/6000000", "0/6000000")), "pg-0").candidateName()).isEqualTo("pg-1");
    }

    @Test
    void aReplicaThatOnlyReportsReplayCountsWithIt() {
        assertThat(FailoverCandidate.choose(List.of(replica("pg-1", null, "0/7000000"),
                replica("pg-2", "0/6000000", "0/6000000")), "pg-0").candidateName()).isEqualTo("pg-1");
    }

    @Test
    void unhealthyNoFailoverAndSilentMembersAreNeverChosen() {
        Choice choice = FailoverCandidate.choose(List.of(
                new Replica("pg-1", "replica", "stopped", false, Lsn.parse("0/9000000"), null),
                new Replica("pg-2", "replica", "running", true, Lsn.parse("0/9000000"), null),
                new Replica("pg-3", "replica", "running", false, null, null),
                replica("pg-4", "0/1000000", "0/1000000")), "pg-0");
        assertThat(choice.candidateName()).isEqualTo("pg-4");
        assertThat(choice.reason()).contains("not pg-1: PostgreSQL is stopped", "not pg-2: it is tagged nofailover",
                "not pg-3: it reports no WAL position");
    }

    @Test
    void withoutAHealthyReplicaTheChoiceIsRefusedWithEveryReason() {
        Choice choice = FailoverCandidate.choose(List.of(
                new Replica("pg-1", "replica", null, false, null, null),
                new Replica("pg-2", "replica", "starting", false, null, null)), "pg-0");
        assertThat(choice.found()).isFalse();
        assertThat(choice.reason()).isEqualTo("no healthy replica to promote: pg-1: PostgreSQL is not answering; "
                + "pg-2: PostgreSQL is starting");
        assertThat(FailoverCandidate.choose(List.of(replica("pg-0", "0/1", "0/1")), "pg-0").reason())
                .isEqualTo("no replica to promote: the workload reports no member besides pg-0");
    }

    @Test
    void theOldLeaderIsNeverTheCandidateEvenWithTheMostData() {
        assertThat(FailoverCandidate.choose(List.of(replica("pg-0", "0/9000000", "0/9000000"),
                replica("pg-1", "0/1000000", "0/1000000")), "pg-0").candidateName()).isEqualTo("pg-1");
    }

    @Test
    void theFailoverSectionHasSafeDefaultsAndNamesEveryBadField() {
        FleetValidator validator = new FleetValidator(Set.of("patroni"), true, Path.of("."));
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName("pgset");
        set.setReplicas(3);
        set.setWorkloadType("patroni");
        set.setDockerCompose("services:\n  db:\n    image: postgres:16\n");
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(set));
        assertThat(validator.validate(fleet)).isEmpty();
        assertThat(set.getFailover().getGraceSeconds()).isEqualTo(30);
        assertThat(set.getFailover().getApproval()).isEqualTo(FailoverApproval.NONE);

        set.getFailover().setGraceSeconds(-1);
        set.getFailover().setApproval(null);
        set.getFailover().setVerifyTimeoutSeconds(0);
        assertThat(validator.validate(fleet)).containsExactly(
                "replicaSets[0] (pgset): failover.graceSeconds: must not be negative (was -1)",
                "replicaSets[0] (pgset): failover.approval: is required: one of none, always",
                "replicaSets[0] (pgset): failover.verifyTimeoutSeconds: must be at least 1 (was 0)");
        set.setFailover(null);
        assertThat(validator.validate(fleet)).containsExactly("replicaSets[0] (pgset): failover: is required");
    }
}
