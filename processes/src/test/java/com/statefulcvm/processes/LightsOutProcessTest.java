package com.statefulcvm.processes;

import com.statefulcvm.delegates.lightsout.ChooseLightsOutSeed;
import com.statefulcvm.delegates.lightsout.ChooseSeedQuorumPartners;
import com.statefulcvm.delegates.lightsout.RecordSequenceNumber;
import com.statefulcvm.delegates.lightsout.RequireLightsOutSeed;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * Every path of lights-out-recovery.bpmn with sequence-generic.bpmn and rejoin-generic.bpmn, their delegates replaced
 * by stand-ins: every CVM started, every replica asked, the largest number seeds and the others follow in ordinal
 * order; the operator's approval and override; a replica that cannot answer, or does not answer in time, is reported
 * and forces a decision; a rejection seeds nothing; a seed that is not admitted seeds nothing; a follower that is not
 * admitted is reported while the others still join; a refused start.
 */
@Deployment(resources = {"processes/lights-out-recovery.bpmn", "processes/sequence-generic.bpmn", "processes/sequence-etcd.bpmn", "processes/rejoin-etcd.bpmn", "processes/attest-instance.bpmn",
        "processes/run-hook.bpmn", "processes/rejoin-generic.bpmn", "processes/approve-lights-out.form",
        "processes/start-lights-out-recovery.form", "processes/hook-failed.form"})
class LightsOutProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private static final List<String> SLOTS = List.of("kv-0", "kv-1", "kv-2");
    private final DueJobs jobs = new DueJobs(Set.of("BoundaryEvent_StartTimedOut", "BoundaryEvent_NoAnswerInTime",
            "BoundaryEvent_SeedTimedOut", "BoundaryEvent_FollowerTimedOut", "BoundaryEvent_HookTimedOut"));

    // what the stand-ins answer
    private String refusal = "";
    private boolean approval = false;
    private final Map<String, Object> numbers = new HashMap<>(Map.of("kv-0", 100L, "kv-1", 300L, "kv-2", 200L));
    /** slot to its generation (Patroni's timeline), for a stand-in that reports one. */
    private final Map<String, Long> generations = new HashMap<>();
    /** slot to its fence: the plan leaves these slots alone. */
    private final Map<String, String> fenced = new LinkedHashMap<>();
    private Set<String> notAdmitted = Set.of();
    private boolean slowRelease = false;
    private String workloadType = "generic";
    private final List<String> steps = new ArrayList<>();

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("planLightsOut", (JavaDelegate) ex -> {
            steps.add("plan");
            ex.setVariable("lightsOutRefusal", refusal);
            List<String> started = new ArrayList<>(SLOTS);
            started.removeAll(fenced.keySet());
            ex.setVariable("lightsOutSlots", started);
            ex.setVariable("fencedSlots", new LinkedHashMap<>(fenced));
            ex.setVariable("wave", new ArrayList<>(SLOTS));
            ex.setVariable("knownInstanceIds", new HashMap<>(Map.of("kv-0", "i-0", "kv-1", "i-1", "kv-2", "i-2")));
            ex.setVariable("lightsOutApproval", approval);
            ex.setVariable("sequenceTimeout", "PT30S");
            ex.setVariable("seedTimeout", "PT60S");
            ex.setVariable("sequenceNumbers", new LinkedHashMap<String, Long>());
            ex.setVariable("unansweredReplicas", new LinkedHashMap<String, String>());
            ex.setVariable("followersNotJoined", new LinkedHashMap<String, String>());
            ex.setVariable("allowedComposeHashes", new ArrayList<>(List.of("aa")));
            ex.setVariable("workloadType", workloadType);
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", "ABANDON");
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("healthProbeInterval", "PT1S");
        });
        Mocks.register("startHeldBackCvm", (JavaDelegate) ex -> {
            String slot = (String) ex.getVariable("slot");
            boolean again = steps.contains("start:" + slot);
            steps.add("start:" + slot);
            ex.setVariable("cvmMissing", false);
            ex.setVariable("cvmRunning", again);
        });
        JavaDelegate readSequence = ex -> {
            String slot = (String) ex.getVariable("slot");
            steps.add("ask:" + slot);
            Object answer = numbers.get(slot);
            if (answer instanceof String failure) {
                throw new BpmnError("HOOK_FAILED", failure);
            }
            ex.setVariable("hookReady", answer != null);
            if (answer != null) {
                ex.setVariable("sequenceNumber", answer);
                ex.setVariable("sequenceSource", "GET /sequence");
                ex.setVariable("sequenceGeneration", generations.get(slot));
            }
            ex.setVariable("stage", answer == null ? "waiting: 502 no upstream" : "answered");
            // as HookStep does: the caller's timeout says what the replica was last waiting for
            ex.getProcessInstance().getSuperExecution().setVariable("hookStage", ex.getVariable("stage"));
        };
        Mocks.register("readSequenceEndpoint", readSequence);
        Mocks.register("readEtcdRaftIndex", readSequence);
        Mocks.register("checkEtcdMemberCaughtUp", (JavaDelegate) ex -> ex.setVariable("hookReady", true));
        // the recovery's own choice and its operator check are the real beans (issue 20: no stand-in re-implements them);
        // the wrappers only note that they ran, for the order of the steps
        Mocks.register("recordSequenceNumber", (JavaDelegate) ex -> {
            new RecordSequenceNumber().execute(ex);
            String slot = (String) ex.getVariable("slot");
            Object error = ex.getVariableLocal("sequenceError");
            steps.add("record:" + slot + "=" + (error == null ? ex.getVariableLocal("sequenceNumber") : error));
        });
        Mocks.register("chooseLightsOutSeed", (JavaDelegate) ex -> {
            new ChooseLightsOutSeed().execute(ex);
            steps.add("seed:" + ex.getVariable("seed"));
        });
        Mocks.register("requireLightsOutSeed", new RequireLightsOutSeed());
        Mocks.register("chooseSeedQuorumPartners", new ChooseSeedQuorumPartners());
        Mocks.register("fenceInstance", (JavaDelegate) ex -> {
            steps.add("fence:" + ex.getVariable("slot"));
            ex.setVariable("fenceAction", "STOP");
            ex.setVariable("fenceHolds", true);
        });
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            String slot = (String) ex.getVariable("slot");
            steps.add("attest:" + slot + "=" + ex.getVariable("boundInstanceId"));
            boolean admitted = !notAdmitted.contains(slot);
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "INSTANCE_MISMATCH");
            ex.setVariable("attestationReason", admitted ? "admitted" : "INSTANCE_MISMATCH: a new instance_id");
        });
        Mocks.register("releaseHeldBackWorkload", (JavaDelegate) ex -> {
            String slot = (String) ex.getVariable("slot");
            boolean again = steps.contains("release:" + slot);
            steps.add("release:" + slot);
            ex.setVariable("hookReady", again || !slowRelease);
        });
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            steps.add("probe:" + ex.getVariable("slot"));
            ex.setVariable("healthGatePassed", true);
        });
        Mocks.register("recordFollowerNotJoined", (JavaDelegate) ex -> {
            steps.add("not-joined:" + ex.getVariable("slot") + "=" + ex.getVariable("attestationReason"));
            @SuppressWarnings("unchecked") Map<String, Object> notJoined = new LinkedHashMap<>((Map<String, Object>) ex.getVariable("followersNotJoined"));
            notJoined.put((String) ex.getVariable("slot"), ex.getVariable("attestationReason"));
            ex.setVariable("followersNotJoined", notJoined);
        });
        Mocks.register("recordLightsOut", (JavaDelegate) ex -> {
            steps.add("outcome:" + ex.getVariable("lightsOutResult"));
            ex.setVariable("outcome", ex.getVariable("lightsOutResult") + " from " + ex.getVariable("seed"));
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> { });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private ProcessInstance recover() {
        ProcessInstance pi = runtimeService().startProcessInstanceByKey("lights-out-recovery", "kv",
                Map.of("replicaSet", "kv", "requestedBy", "olivia", "lightsOutReason", "requested by olivia: power loss"));
        jobs.drive(80);
        return pi;
    }

    private Task onlyTask() {
        return taskService().createTaskQuery().singleResult();
    }

    @Test
    void theLargestNumberSeedsThenTheOthersFollowOneAtATimeInOrdinalOrder() {
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasPassed("SubProcess_StartAll", "SubProcess_AskAll", "Task_ChooseSeed", "SubProcess_Seed",
                "SubProcess_Followers", "CallActivity_Rejoin", "Task_Record").hasNotPassed("UserTask_ApproveSeed", "Task_RecordNotJoined");
        List<String> started = steps.stream().filter(s -> s.startsWith("start:")).distinct().toList();
        assertThat(started).containsExactlyInAnyOrder("start:kv-0", "start:kv-1", "start:kv-2");
        // every CVM runs before the first replica is asked
        assertThat(steps.lastIndexOf("start:kv-2")).isLessThan(steps.indexOf("ask:kv-0"));
        assertThat(steps.subList(steps.indexOf("ask:kv-0"), steps.size())).containsExactly(
                "ask:kv-0", "record:kv-0=100", "ask:kv-1", "record:kv-1=300", "ask:kv-2", "record:kv-2=200", "seed:kv-1",
                "attest:kv-1=i-1", "release:kv-1", "probe:kv-1",
                "attest:kv-0=i-0", "release:kv-0", "probe:kv-0",
                "attest:kv-2=i-2", "release:kv-2", "probe:kv-2",
                "outcome:recovered");
        assertThat(DueJobs.outcome(pi)).isEqualTo("recovered from kv-1");
    }

    /**
     * A raft store's seed cannot pass a health gate alone: the member it needs for a quorum (the most recent other,
     * kv-2) is attested and released right after it, before the seed's gate; then every other joins as before.
     */
    @Test
    void aQuorumStoresSeedIsReleasedWithTheMostRecentOtherBeforeItsHealthGate() {
        workloadType = "etcd";
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasPassed("Task_ChooseQuorumPartners", "SubProcess_QuorumPartners", "CallActivity_AttestPartner",
                "Task_ReleasePartner", "SubProcess_Followers");
        assertThat(steps.subList(steps.indexOf("seed:kv-1"), steps.size())).containsExactly("seed:kv-1",
                "attest:kv-1=i-1", "release:kv-1", "attest:kv-2=i-2", "release:kv-2", "probe:kv-1",
                "attest:kv-0=i-0", "release:kv-0", "probe:kv-0",
                "attest:kv-2=i-2", "release:kv-2", "probe:kv-2",
                "outcome:recovered");
    }

    @Test
    void withApprovalTheOperatorsOverrideIsSeeded() {
        approval = true;
        ProcessInstance pi = recover();
        Task task = onlyTask();
        assertThat(task.getName()).isEqualTo("Approve or override the seed of kv after a lights-out");
        assertThat(task.getDescription()).isEqualTo("kv-0: 100 (GET /sequence)\nkv-1: 300 (GET /sequence) <- largest: the seed\n"
                + "kv-2: 200 (GET /sequence)");
        assertThat(steps).doesNotContain("attest:kv-1=i-1");
        assertThatThrownBy(() -> taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-9")))
                .hasMessageContaining("seed must be one of");
        taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-2"));
        jobs.drive(80);
        DueJobs.that(pi).isEnded().hasPassed("UserTask_ApproveSeed", "SubProcess_Seed", "SubProcess_Followers");
        assertThat(steps.subList(steps.indexOf("seed:kv-1") + 1, steps.size())).containsExactly(
                "attest:kv-2=i-2", "release:kv-2", "probe:kv-2", "attest:kv-0=i-0", "release:kv-0", "probe:kv-0", "attest:kv-1=i-1", "release:kv-1", "probe:kv-1", "outcome:recovered");
        assertThat(runtimeService().createProcessInstanceQuery().count()).isZero();
    }

    /**
     * Every replica reports an empty state: the recovery is refused in Tasklist even without lights-out.approval, and
     * approving it needs a reason; nothing is seeded before.
     */
    @Test
    void aRecoveryOfEmptyReplicasIsRefusedUnlessAnApproverOverridesItWithAReason() {
        numbers.putAll(Map.of("kv-0", 0L, "kv-1", 0L, "kv-2", 0L));
        ProcessInstance pi = recover();
        Task task = onlyTask();
        assertThat(task).as("the set's approval is off, yet an approver decides").isNotNull();
        assertThat(task.getDescription()).startsWith("REFUSED: every replica reports an empty state (sequence 0): seeding kv-0"
                + " would start kv from no data.");
        assertThat(steps).noneMatch(s -> s.startsWith("attest:") || s.startsWith("release:"));
        assertThatThrownBy(() -> taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-0")))
                .hasMessageContaining("every replica reports an empty state: approving starts the set from no data");
        taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-0", "comment", "a new, empty cluster on purpose"));
        jobs.drive(80);
        DueJobs.that(pi).isEnded().hasPassed("UserTask_ApproveSeed", "SubProcess_Seed");
        assertThat(steps).contains("attest:kv-0=i-0", "release:kv-0", "outcome:recovered");
    }

    @Test
    void aReplicaThatCannotAnswerIsReportedNotGuessedAndTheOperatorDecides() {
        numbers.put("kv-1", "answered 'n/a', not a non-negative integer");
        ProcessInstance pi = recover();
        assertThat(steps).contains("record:kv-1=answered 'n/a', not a non-negative integer", "seed:kv-2");
        Task task = onlyTask();
        assertThat(task.getDescription()).isEqualTo("kv-0: 100 (GET /sequence)\nkv-1: NO ANSWER: answered 'n/a', not a non-negative integer\n"
                + "kv-2: 200 (GET /sequence) <- largest: the seed");
        jobs.complete(pi, "UserTask_ApproveSeed", "approved", true, 80);
        DueJobs.that(pi).isEnded();
        assertThat(steps).contains("attest:kv-2=i-2", "outcome:recovered");
    }

    /**
     * Issue 20: positions compare as (generation, number), Patroni's (timeline, LSN): kv-1's higher number lies on an
     * older timeline, so kv-2 seeds (the real ChooseLightsOutSeed; a choice by the number alone picks kv-1).
     */
    @Test
    void aNewerTimelineSeedsOverAHigherPositionOnAnOlderOne() {
        generations.putAll(Map.of("kv-0", 2L, "kv-1", 1L, "kv-2", 2L));
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded();
        assertThat(steps).contains("seed:kv-2");
        assertThat(steps.subList(steps.indexOf("seed:kv-2") + 1, steps.size())).startsWith("attest:kv-2=i-2", "release:kv-2");
        assertThat(DueJobs.outcome(pi)).isEqualTo("recovered from kv-2");
    }

    /**
     * Issue 20: a fenced slot is left alone: not started, not asked, never the proposed seed, refused as the operator's
     * seed (the real RequireLightsOutSeed), and not a follower.
     */
    @Test
    void aFencedSlotIsNotStartedAskedSeededOrJoined() {
        approval = true;
        fenced.put("kv-1", "fenced (stopped): attestation failed: QUOTE_INVALID");
        ProcessInstance pi = recover();
        assertThat(steps).doesNotContain("start:kv-1", "ask:kv-1").contains("seed:kv-2");
        Task task = onlyTask();
        assertThat(task.getDescription()).contains("kv-1: FENCED, not started: fenced (stopped): attestation failed: QUOTE_INVALID");
        assertThatThrownBy(() -> taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-1")))
                .hasMessageContaining("seed kv-1 is fenced");
        taskService().complete(task.getId(), Map.of("approved", true, "seed", "kv-2"));
        jobs.drive(80);
        DueJobs.that(pi).isEnded();
        assertThat(steps).doesNotContain("attest:kv-1=i-1", "release:kv-1");
        assertThat(steps.subList(steps.indexOf("seed:kv-2") + 1, steps.size())).containsExactly(
                "attest:kv-2=i-2", "release:kv-2", "probe:kv-2", "attest:kv-0=i-0", "release:kv-0", "probe:kv-0", "outcome:recovered");
    }

    @Test
    void aReplicaThatDoesNotAnswerInTimeIsReported() {
        numbers.remove("kv-0");
        ProcessInstance pi = recover();
        assertThat(steps).containsSubsequence("ask:kv-0", "ask:kv-0");
        jobs.deadlinePasses("BoundaryEvent_NoAnswerInTime", 80);
        assertThat(steps).contains("record:kv-0=did not answer within PT30S; last: waiting: 502 no upstream", "seed:kv-1");
        DueJobs.that(pi).isWaitingAt("UserTask_ApproveSeed");
    }

    @Test
    void aRejectionSeedsNothing() {
        approval = true;
        ProcessInstance pi = recover();
        jobs.complete(pi, "UserTask_ApproveSeed", "approved", false, 80);
        DueJobs.that(pi).isEnded().hasNotPassed("SubProcess_Seed", "SubProcess_Followers");
        assertThat(steps).last().isEqualTo("outcome:rejected");
    }

    @Test
    void aSeedThatIsNotAdmittedSeedsNothing() {
        notAdmitted = Set.of("kv-1");
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasPassed("BoundaryEvent_SeedNotAdmitted").hasNotPassed("SubProcess_Followers");
        assertThat(steps).containsSubsequence("attest:kv-1=i-1", "fence:kv-1", "outcome:seed-failed");
        assertThat(steps).doesNotContain("probe:kv-1", "attest:kv-0=i-0");
    }

    @Test
    void aFollowerWhoseIdentityChangedIsReportedAndTheOthersStillJoin() {
        notAdmitted = Set.of("kv-0");
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasPassed("Task_RecordNotJoined");
        assertThat(steps.subList(steps.indexOf("seed:kv-1") + 1, steps.size())).containsExactly(
                "attest:kv-1=i-1", "release:kv-1", "probe:kv-1", "attest:kv-0=i-0", "fence:kv-0", "not-joined:kv-0=INSTANCE_MISMATCH: a new instance_id",
                "attest:kv-2=i-2", "release:kv-2", "probe:kv-2", "outcome:recovered");
    }

    @Test
    void aReleaseThatIsNotAnsweredYetIsAskedAgainBeforeTheHealthGate() {
        slowRelease = true;
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasPassed("Timer_ReleaseSeed", "Timer_ReleaseFollower");
        assertThat(steps).containsSubsequence("attest:kv-1=i-1", "release:kv-1", "release:kv-1", "probe:kv-1",
                "attest:kv-0=i-0", "release:kv-0", "release:kv-0", "probe:kv-0");
    }

    @Test
    void aRefusedRecoveryTouchesNothing() {
        refusal = "unknown replica set 'kv'";
        ProcessInstance pi = recover();
        DueJobs.that(pi).isEnded().hasNotPassed("SubProcess_StartAll");
        assertThat(steps).containsExactly("plan", "outcome:refused");
    }
}
