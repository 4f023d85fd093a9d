package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.historyService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;

/**
 * The admission branches with stand-in delegates: admit-instance.bpmn as the health monitor starts it (message
 * AdmitInstance, business key set/ordinal) for an instance restarted behind our back, admitted or fenced; and the fence
 * inside attest-instance.bpmn, which every caller shares: STOP (the fence step stops the CVM itself), DRAIN (the
 * workload's drain through run-hook.bpmn, never a rejoin), and a drain the operator aborts, which leaves it fenced.
 */
@Deployment(resources = {"processes/admit-instance.bpmn", "processes/attest-instance.bpmn", "processes/run-hook.bpmn",
        "processes/drain-generic.bpmn", "processes/hook-failed.form"})
class AdmissionProcessTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    private boolean admitted = true;
    private String onFailure = "STOP";
    private boolean drainFails = false;
    /** Phala takes the stop only at the n-th time it is asked (the fence itself is recorded before the first). */
    private int stopHoldsAt = 1;
    private final List<String> steps = new ArrayList<>();
    private final DueJobs jobs = new DueJobs(Set.of("BoundaryEvent_HookTimedOut"));

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        Mocks.register("attestInstance", (JavaDelegate) ex -> {
            steps.add("attest:" + ex.getVariable("slot") + "/" + ex.getVariable("boundInstanceId") + "/" + ex.getVariable("allowedComposeHashes"));
            ex.setVariable("attested", admitted);
            ex.setVariable("attestationCode", admitted ? null : "QUOTE_INVALID");
            ex.setVariable("attestationReason", admitted ? "admitted" : "QUOTE_INVALID: quote.signature: does not verify");
        });
        Mocks.register("fenceInstance", (JavaDelegate) ex -> {
            steps.add("fence:" + ex.getVariable("slot") + ":" + onFailure + ":" + ex.getVariable("attestationReason"));
            ex.setVariable("fenceAction", onFailure);
            ex.setVariable("fenceHolds", stopHoldsAt <= 1);
            ex.setVariable("cvmPollInterval", "PT1S");
            ex.setVariable("workloadType", "generic");
            ex.setVariable("hookTimeout", "PT30S");
            ex.setVariable("hookPollInterval", "PT1S");
            ex.setVariable("hookDefaultResult", "ABANDON");
        });
        Mocks.register("confirmFencedStop", (JavaDelegate) ex -> {
            steps.add("stop-again:" + ex.getVariable("slot"));
            ex.setVariable("fenceHolds", steps.stream().filter(s -> s.startsWith("stop-again:")).count() + 1 >= stopHoldsAt);
        });
        Mocks.register("callPreStopEndpoint", (JavaDelegate) ex -> {
            steps.add("drain:" + ex.getVariable("slot"));
            if (drainFails) {
                throw new BpmnError("HOOK_FAILED", "pre-stop endpoint answered 500");
            }
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> { });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    /** As the health monitor starts it for db-1, restarted behind our back. */
    private ProcessInstance admit() {
        ProcessInstance pi = runtimeService().createMessageCorrelation("AdmitInstance").processInstanceBusinessKey("db/1")
                .setVariables(Map.of("replicaSet", "db", "ordinal", 1, "slot", "db-1",
                        "admissionReason", "health monitor: restarted since its last attestation",
                        "boundInstanceId", "i-1", "allowedComposeHashes", new ArrayList<>(List.of("aa"))))
                .correlateStartMessage();
        jobs.drive(20);
        return pi;
    }

    @Test
    void anHonestInstanceIsAdmittedAgainWithoutAFence() {
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("CallActivity_Attest", "EndEvent_Admitted").hasNotPassed("EndEvent_Fenced");
        assertThat(steps).containsExactly("attest:db-1/i-1/[aa]");
    }

    @Test
    void aFailedAttestationStopsTheCvmAndEndsFenced() {
        admitted = false;
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("BoundaryEvent_NotAdmitted", "EndEvent_Fenced").hasNotPassed("EndEvent_Admitted");
        assertThat(steps).containsExactly("attest:db-1/i-1/[aa]", "fence:db-1:STOP:QUOTE_INVALID: quote.signature: does not verify");
        assertThat(passedInAttest("CallActivity_DrainFenced")).isFalse();
        assertThat(passedInAttest("EndEvent_AttestationFailed")).isTrue();
    }

    /** Issue 20: a stop Phala does not take (busy, down) is asked again until it holds; the fence stands meanwhile. */
    @Test
    void aStopThatDoesNotHoldIsAskedAgainUntilItDoes() {
        admitted = false;
        stopHoldsAt = 3;
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_Fenced");
        assertThat(steps).containsExactly("attest:db-1/i-1/[aa]", "fence:db-1:STOP:QUOTE_INVALID: quote.signature: does not verify",
                "stop-again:db-1", "stop-again:db-1");
        assertThat(passedInAttest("Timer_WaitForStop")).isTrue();
    }

    @Test
    void underDrainTheFencedInstanceIsDrainedThroughItsWorkloadHookAndNeverRejoined() {
        admitted = false;
        onFailure = "DRAIN";
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_Fenced");
        assertThat(steps).containsExactly("attest:db-1/i-1/[aa]", "fence:db-1:DRAIN:QUOTE_INVALID: quote.signature: does not verify",
                "drain:db-1");
        assertThat(passedInAttest("CallActivity_DrainFenced")).isTrue();
        assertThat(historyService().createHistoricProcessInstanceQuery().processDefinitionKey("rejoin-generic").count()).isZero();
    }

    @Test
    void aDrainTheOperatorAbortsStillLeavesTheInstanceFenced() {
        admitted = false;
        onFailure = "DRAIN";
        drainFails = true;
        ProcessInstance pi = admit();
        ProcessInstance hook = runtimeService().createProcessInstanceQuery().processDefinitionKey("run-hook").singleResult();
        assertThat(hook).as("the failed drain waits for the operator").isNotNull();
        jobs.complete(hook, "UserTask_HookDidNotFinish", "decision", "abort", 20);
        DueJobs.that(pi).isEnded().hasPassed("EndEvent_Fenced");
        assertThat(passedInAttest("BoundaryEvent_DrainStopped")).isTrue();
    }

    /**
     * Beyond the disruption budget the fence step fences nothing (fenceAction HELD): attest-instance ends with the
     * caller's error as for any refusal, and admit-instance ends telling that the instance keeps running unadmitted,
     * not that it was fenced; no stop and no drain is asked.
     */
    @Test
    void aRefusalBeyondTheBudgetEndsKeptRunningNotFencedAndNeitherStopsNorDrains() {
        admitted = false;
        onFailure = "HELD";
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("BoundaryEvent_NotAdmitted", "EndEvent_RefusedKeptRunning")
                .hasNotPassed("EndEvent_Fenced", "EndEvent_Admitted");
        assertThat(steps).containsExactly("attest:db-1/i-1/[aa]", "fence:db-1:HELD:QUOTE_INVALID: quote.signature: does not verify");
        assertThat(passedInAttest("EndEvent_RefusedKeptRunning")).isTrue();
        assertThat(passedInAttest("Gateway_StopHolds")).isFalse();
        assertThat(passedInAttest("CallActivity_DrainFenced")).isFalse();
    }

    /**
     * The monitor's re-attestation that finds a procedure working on the slot by the time it would fence (fenceAction
     * YIELDED) ends saying so: neither fenced, nor refused and kept running for an approver; no stop, no drain.
     */
    @Test
    void aReattestationOvertakenByAProcedureEndsYieldedNeitherFencedNorRefused() {
        admitted = false;
        onFailure = "YIELDED";
        ProcessInstance pi = admit();
        DueJobs.that(pi).isEnded().hasPassed("BoundaryEvent_NotAdmitted", "EndEvent_YieldedToProcedure")
                .hasNotPassed("EndEvent_Fenced", "EndEvent_RefusedKeptRunning", "EndEvent_Admitted");
        assertThat(passedInAttest("EndEvent_YieldedToProcedure")).isTrue();
        assertThat(passedInAttest("Gateway_StopHolds")).isFalse();
        assertThat(passedInAttest("CallActivity_DrainFenced")).isFalse();
    }

    /** Whether the (last) attest-instance run passed the activity. */
    private static boolean passedInAttest(String activityId) {
        return historyService().createHistoricActivityInstanceQuery().activityId(activityId).count() > 0;
    }
}
