package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.runtime.Job;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.historyService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * Every path of heal.bpmn with its delegates replaced by stand-ins, started by its message as the health monitor and
 * the REST API start it: a restart that heals; a restart that does not, then a replacement (onDataLoss REPLACE); a CVM
 * that is gone, replaced; ESCALATE handing over to the operator, who retries, replaces or resolves; the approvals
 * (ALWAYS before the restart, BEFORE_REPLACE before the replacement, both ways); attestation refusing the restarted
 * instance; and the drain and rejoin hooks around it, through run-hook.bpmn.
 */
@Deployment(resources = {"processes/heal.bpmn", "processes/attest-instance.bpmn", "processes/run-hook.bpmn",
        "processes/drain-generic.bpmn", "processes/rejoin-generic.bpmn", "processes/leave-etcd.bpmn",
        "processes/add-etcd.bpmn", "processes/join-etcd.bpmn", "processes/rejoin-etcd.bpmn", "processes/approve-heal.form",
        "processes/heal-handover.form", "processes/hook-failed.form"})
class HealProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private static final Set<String> DEADLINES = Set.of("BoundaryEvent_RestartDeadline", "BoundaryEvent_ReplaceDeadline",
            "BoundaryEvent_HookTimedOut");

    // What the stand-ins answer; each test sets what it needs before starting.
    private String approval = "BEFORE_REPLACE";
    private String onDataLoss = "ESCALATE";
    private boolean cvmPresent = true;
    private boolean cvmReachable = true;
    private boolean cvmGoneOnRestart = false;
    private boolean restartHeals = true;
    private boolean replacementHeals = true;
    private boolean admitted = true;
    /** The rollout that takes the slot at the n-th check of the heal (0: never). */
    private int rolloutTakesSlotAtCheck = 0;
    private int checks = 0;
    /** The CVM is not yet running at the first poll. */
    private boolean cvmSlow = false;
    /** An etcd set: its replacement is a new member (leave, add, join around it). */
    private boolean newMember = false;

    /** Every step, in order: "prepare", "drain", "restart", "await:RESTART", "attest:i-old", "probe:RESTART", ... */
    private final List<String> steps = new ArrayList<>();

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("prepareHeal", (JavaDelegate) ex -> {
            steps.add("prepare");
            String slot = (String) ex.getVariable("slot");
            ex.setVariable("healApproval", approval);
            ex.setVariable("onDataLoss", onDataLoss);
            ex.setVariable("cvmPresent", cvmPresent);
            ex.setVariable("cvmReachable", cvmPresent && cvmReachable);
            ex.setVariable("restartCompose", cvmPresent ? "services: {db: 1}" : null);
            ex.setVariable("targetCompose", "services: {db: 1}");
            ex.setVariable("restartActions", new HashMap<>(Map.of(slot, "RESTART")));
            ex.setVariable("replaceActions", new HashMap<>(Map.of(slot, "REPLACE")));
            ex.setVariable("boundInstanceId", "i-old");
            ex.setVariable("boundInstanceIds", new HashMap<>(Map.of(slot, "i-old")));
            ex.setVariable("allowedComposeHashes", new ArrayList<>(List.of("aa")));
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("healthProbeInterval", "PT1S");
            ex.setVariable("healDeadline", "PT60S");
            ex.setVariable("workloadType", newMember ? "etcd" : "generic");
            ex.setVariable("replacementIsNewMember", newMember);
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", "ABANDON");
            ex.setVariable("healFailure", null);
            ex.setVariable("healResult", null);
            ex.setVariable("stage", "prepared");
        });
        Mocks.register("callPreStopEndpoint", (JavaDelegate) ex -> steps.add("drain"));
        for (String step : List.of("removeEtcdMember", "addEtcdLearner", "promoteEtcdLearner", "checkEtcdMemberCaughtUp")) {
            Mocks.register(step, (JavaDelegate) ex -> {
                steps.add(step);
                ex.setVariable("hookReady", true);
                ex.setVariable("stage", step + " done");
            });
        }
        Mocks.register("restartCvm", (JavaDelegate) ex -> {
            steps.add("restart");
            if (cvmGoneOnRestart) {
                throw new BpmnError("CVM_GONE", "the CVM of " + ex.getVariable("slot") + " is gone");
            }
            ex.setVariable("restartRequested", true);
        });
        Mocks.register("yieldToRollout", (JavaDelegate) ex -> {
            steps.add("check");
            if (++checks == rolloutTakesSlotAtCheck) {
                ex.setVariable("healFailure", "rollout 42 is working on db-1: the heal leaves the instance to it");
                throw new BpmnError("SLOT_TAKEN", "rollout 42 is working on db-1");
            }
        });
        Mocks.register("applyPlannedAction", (JavaDelegate) ex -> steps.add("apply:" + action(ex)));
        Mocks.register("awaitCvmRunning", (JavaDelegate) ex -> {
            steps.add("await:" + action(ex) + "@" + ex.getVariable("targetCompose"));
            ex.setVariable("cvmRunning", !cvmSlow || steps.stream().filter(x -> x.startsWith("await:")).count() > 1);
        });
        Mocks.register("fenceInstance", (JavaDelegate) ex -> {
            steps.add("fence:" + ex.getVariable("slot"));
            ex.setVariable("fenceAction", "STOP");
            ex.setVariable("fenceHolds", true);
        });
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            steps.add("attest:" + ex.getVariable("boundInstanceId"));
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "ADMISSION_REJECTED");
            ex.setVariable("attestationReason", admitted ? "admitted" : "ADMISSION_REJECTED: instance_id i-other is not i-old");
        });
        Mocks.register("probeHealth", (JavaDelegate) ex -> {
            String action = action(ex);
            steps.add("probe:" + action);
            boolean healthy = "REPLACE".equals(action) ? replacementHeals : restartHeals;
            ex.setVariable("healthGatePassed", healthy);
            ex.setVariable("stage", healthy ? "healthy" : "waiting for health: last probe 502 no upstream");
        });
        Mocks.register("recordHeal", (JavaDelegate) ex -> {
            steps.add("record:" + ex.getVariable("healResult"));
            ex.setVariable("outcome", ex.getVariable("healResult") + "; why: " + ex.getVariable("healReason"));
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> { });
        Mocks.register("requireApprovalDecision", (TaskListener) task -> {
            if (!(task.getVariable("approved") instanceof Boolean)) {
                throw new FormFieldValidationException("approved", "approved must be true or false");
            }
        });
        Mocks.register("requireHealDecision", (TaskListener) task -> {
            if (!List.of("retry", "replace", "resolved").contains(task.getVariable("decision"))) {
                throw new FormFieldValidationException("decision", "decision must be one of retry, replace or resolved");
            }
        });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private static String action(DelegateExecution ex) {
        return String.valueOf(((Map<?, ?>) ex.getVariable("actions")).get(ex.getVariable("slot")));
    }

    /** As the monitor and the REST API start it: the message HealInstance with business key set/ordinal. */
    private ProcessInstance heal() {
        ProcessInstance pi = runtimeService().createMessageCorrelation("HealInstance").processInstanceBusinessKey("db/1")
                .setVariables(Map.of("replicaSet", "db", "ordinal", 1, "slot", "db-1",
                        "healReason", "health monitor: 3 consecutive failed health checks; last: CVM status stopped",
                        "healTrigger", "monitor", "requestedBy", "health monitor"))
                .correlateStartMessage();
        drive();
        return pi;
    }

    private final DueJobs jobs = new DueJobs(DEADLINES);

    private void drive() {
        jobs.drive(20);
    }

    private void deadlinePasses(String boundaryEvent) {
        jobs.deadlinePasses(boundaryEvent, 20);
    }

    private void complete(ProcessInstance pi, String key, String variable, Object value) {
        jobs.complete(pi, key, variable, value, 20);
    }

    private static org.camunda.bpm.engine.test.assertions.bpmn.ProcessInstanceAssert that(ProcessInstance pi) {
        return DueJobs.that(pi);
    }

    private static String outcome(ProcessInstance pi) {
        return DueJobs.outcome(pi);
    }

    private Task task(ProcessInstance pi, String key) {
        return taskService().createTaskQuery().processInstanceId(pi.getId()).taskDefinitionKey(key).singleResult();
    }

    @Test
    void aRestartThatMakesTheInstanceHealthyHealsItKeepingItsIdentity() {
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("Task_PrepareHeal", "CallActivity_DrainInstance", "Task_RestartCvm",
                "CallActivity_AttestRestarted", "Task_ProbeRestarted", "CallActivity_RejoinInstance", "Task_RecordHeal",
                "EndEvent_HealedByRestart").hasNotPassed("UserTask_ApproveRestart", "SubProcess_Replace");
        assertThat(steps).containsExactly("prepare", "drain", "restart", "await:RESTART@services: {db: 1}", "attest:i-old",
                "probe:RESTART", "record:restarted");
        assertThat(outcome(pi)).isEqualTo("restarted; why: health monitor: 3 consecutive failed health checks; last: CVM status stopped");
        assertThat(historyService().createHistoricProcessInstanceQuery().processInstanceId(pi.getId()).singleResult()
                .getBusinessKey()).isEqualTo("db/1");
    }

    @Test
    void aCrashedCvmThatIsNotReachableIsRestartedWithoutADrain() {
        cvmReachable = false;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("EndEvent_HealedByRestart").hasNotPassed("CallActivity_DrainInstance");
        assertThat(steps).doesNotContain("drain").contains("restart");
    }

    @Test
    void aRestartThatDoesNotHealIsFollowedByAReplacementUnderOnDataLossReplace() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        restartHeals = false;
        ProcessInstance pi = heal();
        that(pi).isWaitingAt("Timer_WaitForRestartedHealth");
        deadlinePasses("BoundaryEvent_RestartDeadline");
        that(pi).isEnded().hasPassed("BoundaryEvent_RestartDeadline", "Task_ApplyReplace", "CallActivity_AttestReplacement",
                "CallActivity_RejoinInstance", "EndEvent_Replaced").hasNotPassed("UserTask_ApproveReplace", "UserTask_HandOver");
        int replace = steps.indexOf("apply:REPLACE");
        assertThat(replace).isPositive();
        assertThat(steps.subList(replace - 1, steps.size())).containsExactly("check", "apply:REPLACE", "await:REPLACE@services: {db: 1}",
                "attest:null", "probe:REPLACE", "record:replaced");
        assertThat((String) historyService().createHistoricVariableInstanceQuery().processInstanceId(pi.getId())
                .variableName("healFailure").singleResult().getValue())
                .isEqualTo("the restart of db-1 did not make it healthy within PT60S; last: waiting for health: last probe 502 no upstream");
    }

    @Test
    void aCvmThatIsGoneIsReplacedInItsSlotWithoutARestart() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmPresent = false;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("EndEvent_Replaced").hasNotPassed("SubProcess_Restart", "CallActivity_DrainInstance");
        assertThat(steps).containsExactly("prepare", "check", "apply:REPLACE", "await:REPLACE@services: {db: 1}", "attest:null",
                "probe:REPLACE", "record:replaced");
    }

    @Test
    void aReplacementThatIsANewMemberRemovesTheOldOneAddsTheNewOneBeforeItsCvmAndPromotesItAfterItsHealthGate() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmPresent = false;
        newMember = true;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("CallActivity_RemoveOldMember", "CallActivity_AddNewMember", "CallActivity_JoinNewMember",
                "EndEvent_Replaced");
        assertThat(steps).containsExactly("prepare", "check", "removeEtcdMember", "addEtcdLearner", "apply:REPLACE",
                "await:REPLACE@services: {db: 1}", "attest:null", "probe:REPLACE", "promoteEtcdLearner",
                "checkEtcdMemberCaughtUp", "checkEtcdMemberCaughtUp", "record:replaced");
    }

    @Test
    void aReplacementOfATypeWhoseMembersAreNotTrackedRunsNoLeaveAddOrJoin() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmPresent = false;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("EndEvent_Replaced").hasNotPassed("CallActivity_RemoveOldMember",
                "CallActivity_AddNewMember", "CallActivity_JoinNewMember");
    }

    @Test
    void aCvmThatVanishesDuringTheRestartIsReplaced() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmGoneOnRestart = true;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("BoundaryEvent_CvmGone", "EndEvent_Replaced");
    }

    @Test
    void aHealLeavesTheInstanceToARolloutThatTakesTheSlotWhileItPolls() {
        cvmSlow = true;
        rolloutTakesSlotAtCheck = 1;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("Task_YieldRestartPoll", "BoundaryEvent_RestartSlotTaken", "EndEvent_LeftToRollout")
                .hasNotPassed("CallActivity_AttestRestarted", "CallActivity_RejoinInstance");
        assertThat(steps).containsExactly("prepare", "drain", "restart", "await:RESTART@services: {db: 1}", "check", "record:yielded");
    }

    @Test
    void aReplacementIsNotStartedOnASlotThatARolloutHasTaken() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmPresent = false;
        rolloutTakesSlotAtCheck = 1;
        ProcessInstance pi = heal();
        that(pi).isEnded().hasPassed("BoundaryEvent_ReplaceSlotTaken", "EndEvent_LeftToRollout").hasNotPassed("Task_ApplyReplace");
        assertThat(steps).containsExactly("prepare", "check", "record:yielded");
    }

    @Test
    void underEscalateAGoneCvmIsHandedOverToTheOperatorWithTheReason() {
        cvmPresent = false;
        ProcessInstance pi = heal();
        that(pi).isWaitingAt("UserTask_HandOver").hasNotPassed("SubProcess_Replace", "SubProcess_Restart");
        Task task = task(pi, "UserTask_HandOver");
        assertThat(task.getName()).isEqualTo("Heal of db-1 handed over: retry, replace or resolved");
        assertThat(task.getDescription()).isEqualTo("the CVM of db-1 is gone (deleted or lost): its disk and instance i-old with it");
        assertThat(taskService().getVariable(task.getId(), "healFailure")).isEqualTo(task.getDescription());

        assertThatThrownBy(() -> taskService().complete(task.getId(), Map.of("decision", "rollback")))
                .hasMessageContaining("decision must be one of retry, replace or resolved");
        complete(pi, "UserTask_HandOver", "decision", "resolved");
        that(pi).isEnded().hasPassed("EndEvent_ResolvedByOperator").hasNotPassed("CallActivity_RejoinInstance");
        assertThat(steps).containsExactly("prepare", "record:resolved");
    }

    @Test
    void underEscalateARestartThatDoesNotHealIsHandedOverAndTheOperatorMayOrderTheReplacement() {
        restartHeals = false;
        ProcessInstance pi = heal();
        deadlinePasses("BoundaryEvent_RestartDeadline");
        that(pi).isWaitingAt("UserTask_HandOver").hasNotPassed("UserTask_ApproveReplace");
        complete(pi, "UserTask_HandOver", "decision", "replace");
        that(pi).isEnded().hasPassed("SubProcess_Replace", "EndEvent_Replaced").hasNotPassed("UserTask_ApproveReplace");
    }

    @Test
    void theOperatorMayRetryTheRestart() {
        restartHeals = false;
        ProcessInstance pi = heal();
        deadlinePasses("BoundaryEvent_RestartDeadline");
        restartHeals = true;
        complete(pi, "UserTask_HandOver", "decision", "retry");
        that(pi).isEnded().hasPassed("EndEvent_HealedByRestart");
        assertThat(steps.stream().filter("restart"::equals).count()).isEqualTo(2);
        assertThat(steps.stream().filter("drain"::equals).count()).as("drained once, before the first restart").isEqualTo(1);
    }

    @Test
    void approvalAlwaysAsksBeforeTheRestartAndARejectionEndsTheHeal() {
        approval = "ALWAYS";
        ProcessInstance pi = heal();
        that(pi).isWaitingAt("UserTask_ApproveRestart");
        assertThat(task(pi, "UserTask_ApproveRestart").getName()).isEqualTo("Approve restarting db-1");
        assertThat(steps).containsExactly("prepare");
        complete(pi, "UserTask_ApproveRestart", "approved", false);
        that(pi).isEnded().hasPassed("EndEvent_HealRejected");
        assertThat(steps).containsExactly("prepare", "record:rejected");
    }

    @Test
    void approvalAlwaysAsksBeforeTheRestartAndAgainBeforeTheReplacement() {
        approval = "ALWAYS";
        onDataLoss = "REPLACE";
        restartHeals = false;
        ProcessInstance pi = heal();
        complete(pi, "UserTask_ApproveRestart", "approved", true);
        that(pi).isWaitingAt("Timer_WaitForRestartedHealth");
        deadlinePasses("BoundaryEvent_RestartDeadline");
        that(pi).isWaitingAt("UserTask_ApproveReplace");
        complete(pi, "UserTask_ApproveReplace", "approved", true);
        that(pi).isEnded().hasPassed("EndEvent_Replaced");
    }

    @Test
    void approvalBeforeReplaceLetsTheRestartGoAheadButAsksBeforeTheReplacement() {
        onDataLoss = "REPLACE";
        cvmPresent = false;
        ProcessInstance pi = heal();
        that(pi).isWaitingAt("UserTask_ApproveReplace");
        Task task = task(pi, "UserTask_ApproveReplace");
        assertThat(task.getName()).isEqualTo("Approve replacing db-1 with a new, empty CVM");
        assertThat(taskService().getVariable(task.getId(), "healStep")).asString().startsWith("replace: a new CVM in the slot");
        complete(pi, "UserTask_ApproveReplace", "approved", true);
        that(pi).isEnded().hasPassed("EndEvent_Replaced");
    }

    @Test
    void aRejectedReplacementIsHandedOverToTheOperator() {
        onDataLoss = "REPLACE";
        cvmPresent = false;
        ProcessInstance pi = heal();
        complete(pi, "UserTask_ApproveReplace", "approved", false);
        that(pi).isWaitingAt("UserTask_HandOver").hasNotPassed("SubProcess_Replace");
        assertThat(task(pi, "UserTask_HandOver").getDescription()).startsWith("the replacement of db-1 was rejected; before: the CVM of db-1 is gone");
    }

    @Test
    void aRestartedInstanceThatFailsAttestationIsFencedAndHandedOverNeverReplacedAutomatically() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        admitted = false;
        ProcessInstance pi = heal();
        that(pi).isWaitingAt("UserTask_HandOver").hasNotPassed("SubProcess_Replace", "Task_ProbeRestarted");
        assertThat(steps).containsSubsequence("attest:i-old", "fence:db-1").doesNotContain("probe:RESTART");
        assertThat(task(pi, "UserTask_HandOver").getDescription())
                .isEqualTo("attestation of db-1 failed after the restart, the instance is not admitted: ADMISSION_REJECTED: instance_id i-other is not i-old");
    }

    @Test
    void aReplacementThatDoesNotBecomeHealthyIsHandedOver() {
        onDataLoss = "REPLACE";
        approval = "NONE";
        cvmPresent = false;
        replacementHeals = false;
        ProcessInstance pi = heal();
        deadlinePasses("BoundaryEvent_ReplaceDeadline");
        that(pi).isWaitingAt("UserTask_HandOver");
        assertThat(task(pi, "UserTask_HandOver").getDescription()).startsWith("the replacement of db-1 did not become healthy within PT60S");
    }
}
