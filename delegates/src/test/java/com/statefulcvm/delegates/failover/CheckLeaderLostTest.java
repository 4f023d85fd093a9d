package com.statefulcvm.delegates.failover;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * "Check whether the leader is lost": a leader the DCS names but that does not say so itself is lost; the workload
 * gets its grace from the first check that found it lost, except in maintenance mode; a leader that answers after
 * that is the workload's own recovery; and once the DCS forgets the old leader, it is the one slot missing.
 */
class CheckLeaderLostTest {

    private static final Instant NOW = Instant.parse("2026-11-22T08:00:00Z");

    private final SlotReader slots = mock(SlotReader.class);
    private final PatroniSet patroni = mock(PatroniSet.class);
    private final PatroniSet.Members members = mock(PatroniSet.Members.class);
    private final DelegateExecution execution = mock(DelegateExecution.class);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final CheckLeaderLost check = new CheckLeaderLost(slots, patroni, new RolloutSettings(Duration.ofMillis(250)),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @BeforeEach
    void aPatroniSetOfThree() {
        spec.setName("pg");
        spec.setReplicas(3);
        spec.setWorkloadType("patroni");
        when(slots.spec(execution)).thenReturn(spec);
        when(patroni.members(spec)).thenReturn(members);
        when(members.cvms()).thenReturn(List.of(cvm("pg-0"), cvm("pg-1"), cvm("pg-2")));
    }

    private static CvmInfo cvm(String name) {
        return new CvmInfo("cvm_" + name, name, "a".repeat(40), "uuid", "i".repeat(40), "running", false, null, "hash",
                null, null, null, null, null, null, null, null, null, null, null, null);
    }

    private static PatroniMember member(String name, String role) {
        return new PatroniMember(name, role, "running", null, null, null, 1L, null, null, null, null, null, null, null, null);
    }

    private void clusterIs(boolean paused, PatroniMember... listed) {
        Optional<PatroniCluster> cluster = Optional.of(new PatroniCluster(List.of(listed), "pg", paused ? true : null, null));
        when(members.cluster()).thenReturn(cluster);
        Optional<String> answering = cluster.flatMap(PatroniCluster::leader).map(PatroniMember::name)
                .filter(name -> !name.equals("pg-0"));
        when(members.answeringLeader(cluster)).thenReturn(answering);
    }

    private void verdictIs(String verdict) {
        verify(execution).setVariable(FailoverVariables.LEADER_VERDICT, verdict);
    }

    @Test
    void aLeaderThatAnswersNeedsNoFailover() {
        clusterIs(false, member("pg-0", "replica"), member("pg-1", "leader"), member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("HEALTHY");
        verify(execution).setVariable(FailoverVariables.FAILOVER_RESULT, "not-needed");
        verify(execution, never()).setVariable(eq(FailoverVariables.OLD_LEADER), any());
    }

    @Test
    void aLeaderTheDcsStillNamesButThatDoesNotAnswerIsLostAndGivenItsGrace() {
        clusterIs(false, member("pg-0", "leader"), member("pg-1", "replica"), member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("WAITING");
        verify(execution).setVariable(FailoverVariables.OLD_LEADER, "pg-0");
        verify(execution).setVariable(FailoverVariables.GRACE_UNTIL, "2026-11-22T08:00:30Z");
        verify(execution).setVariable(eq(FailoverVariables.STAGE),
                argThat((String s) -> s.startsWith("the leader pg-0 does not answer as leader; waiting")));
    }

    @Test
    void inMaintenanceModeTheGraceIsNotWaitedFor() {
        clusterIs(true, member("pg-0", "leader"), member("pg-1", "replica"), member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("LOST");
        verify(execution).setVariable(FailoverVariables.AUTO_FAILOVER_PAUSED, true);
    }

    @Test
    void onceTheGraceIsOverTheLeaderIsLost() {
        when(execution.getVariable(FailoverVariables.GRACE_UNTIL)).thenReturn("2026-11-22T07:59:59Z");
        clusterIs(false, member("pg-1", "replica"), member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("LOST");
        verify(execution).setVariable(FailoverVariables.OLD_LEADER, "pg-0");
        verify(execution, never()).setVariable(eq(FailoverVariables.GRACE_UNTIL), any());
    }

    @Test
    void aLeaderThatAnswersAfterTheLeaderWasLostIsTheWorkloadsOwnRecovery() {
        when(execution.getVariable(FailoverVariables.GRACE_UNTIL)).thenReturn("2026-11-22T08:00:20Z");
        when(execution.getVariable(FailoverVariables.OLD_LEADER)).thenReturn("pg-0");
        clusterIs(false, member("pg-1", "leader"), member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("RECOVERED");
        verify(execution).setVariable(FailoverVariables.FAILOVER_RESULT, "recovered");
    }

    @Test
    void withSeveralMembersMissingNoOneCanTellWhichLed() {
        clusterIs(false, member("pg-2", "replica"));
        check.execute(execution);
        verdictIs("WAITING");
        verify(execution, never()).setVariable(eq(FailoverVariables.OLD_LEADER), any());
    }

    @Test
    void aSetThatIsNotPatroniIsRefused() {
        spec.setWorkloadType("etcd");
        check.execute(execution);
        verdictIs("REFUSED");
        verify(execution).setVariable(FailoverVariables.FAILOVER_RESULT, "refused");
    }
}
