package com.statefulcvm.processes;

import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.validator.FormFieldValidationException;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.Deployment;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.engine.test.mock.Mocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.init;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.managementService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.taskService;

/**
 * The drain and rejoin procedures of every workload type, and run-hook.bpmn around them, with their delegates
 * replaced by stand-ins that answer from a script: each check answers "not yet" as often as the test says, and the
 * diagram must wait, look again, and finish on the right end event.
 */
@Deployment(resources = {"processes/run-hook.bpmn", "processes/hook-failed.form",
        "processes/drain-generic.bpmn", "processes/rejoin-generic.bpmn",
        "processes/drain-patroni.bpmn", "processes/rejoin-patroni.bpmn",
        "processes/drain-etcd.bpmn", "processes/rejoin-etcd.bpmn",
        "processes/drain-consul.bpmn", "processes/rejoin-consul.bpmn",
        "processes/add-generic.bpmn", "processes/join-generic.bpmn", "processes/leave-generic.bpmn",
        "processes/add-patroni.bpmn", "processes/join-patroni.bpmn", "processes/leave-patroni.bpmn",
        "processes/add-etcd.bpmn", "processes/join-etcd.bpmn", "processes/leave-etcd.bpmn",
        "processes/add-consul.bpmn", "processes/join-consul.bpmn", "processes/leave-consul.bpmn",
        "processes/drain-galera.bpmn", "processes/rejoin-galera.bpmn",
        "processes/add-galera.bpmn", "processes/join-galera.bpmn", "processes/leave-galera.bpmn"})
class HookProcessesTest {

    @RegisterExtension
    static ProcessEngineExtension extension = ProcessEngineExtension.builder().useProcessEngine(TestEngine.get()).build();

    /** Every delegate call, in order. */
    private final List<String> calls = new ArrayList<>();
    /** Per bean, the answers its checks give in turn (hookReady, or drainDecision for the Patroni drain). */
    private final Map<String, Deque<Object>> script = new HashMap<>();

    @BeforeEach
    void standIns() {
        init(extension.getProcessEngine());
        for (String bean : List.of("callPreStopEndpoint", "checkPatroniStreaming", "switchOverPatroniLeader", "confirmPatroniLeader",
                "checkEtcdQuorum", "moveEtcdLeadership", "confirmEtcdLeader", "checkEtcdMemberCaughtUp",
                "checkConsulFailureTolerance", "transferConsulLeadership", "confirmConsulLeader", "checkConsulVoter",
                "addEtcdLearner", "promoteEtcdLearner", "removeEtcdMember", "leaveConsul", "desyncGaleraNode", "resumeGaleraNode")) {
            Mocks.register(bean, (JavaDelegate) ex -> {
                calls.add(bean);
                Object answer = next(bean, true);
                if (answer instanceof BpmnError error) {
                    throw error;
                }
                ex.setVariable("hookReady", answer);
                ex.setVariable("stage", bean + " answered " + answer);
                ex.setVariable("isLeader", next(bean + ".isLeader", false));
            });
        }
        Mocks.register("decidePatroniDrain", (JavaDelegate) ex -> {
            calls.add("decidePatroniDrain");
            ex.setVariable("drainDecision", next("decidePatroniDrain", "READY"));
        });
        Mocks.register("requireHookDecision", (TaskListener) task -> {
            if (!List.of("retry", "continue", "abort").contains(task.getVariable("decision"))) {
                throw new FormFieldValidationException("decision", "decision must be retry, continue or abort");
            }
        });
    }

    @AfterEach
    void reset() {
        Mocks.reset();
    }

    private Object next(String key, Object otherwise) {
        Deque<Object> answers = script.get(key);
        return answers == null || answers.isEmpty() ? otherwise : answers.poll();
    }

    private void answers(String key, Object... values) {
        script.put(key, new ArrayDeque<>(List.of(values)));
    }

    private ProcessInstance start(String key) {
        return runtimeService().startProcessInstanceByKey(key, Map.of("replicaSet", "db", "slot", "db-1", "workloadType", "x",
                "targetCompose", "services: {}", "hookPollInterval", "PT1S"));
    }

    private ProcessInstance runHook(String hook, String workloadType, String defaultResult) {
        return runtimeService().startProcessInstanceByKey("run-hook", Map.of("replicaSet", "db", "slot", "db-1", "hook", hook,
                "workloadType", workloadType, "targetCompose", "services: {}", "hookPollInterval", "PT1S",
                "hookTimeout", "PT30S", "hookDefaultResult", defaultResult));
    }

    /** Runs due jobs (asynchronous steps, and every poll timer as if its time had come) until none is left. */
    private void drive() {
        for (int round = 0; round < 50; round++) {
            List<String> timeouts = managementService().createJobQuery().activityId("BoundaryEvent_HookTimedOut").list().stream()
                    .map(Job::getId).toList();
            List<Job> jobs = managementService().createJobQuery().list().stream().filter(j -> !timeouts.contains(j.getId())).toList();
            if (jobs.isEmpty()) {
                return;
            }
            jobs.forEach(j -> managementService().executeJob(j.getId()));
        }
        throw new AssertionError("the procedure kept polling: " + calls);
    }

    private static org.camunda.bpm.engine.test.assertions.bpmn.ProcessInstanceAssert that(ProcessInstance pi) {
        return org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.assertThat(pi);
    }

    @Test
    void genericDrainCallsThePreStopEndpointAndRejoinNeedsNothing() {
        ProcessInstance drain = start("drain-generic");
        that(drain).isEnded().hasPassed("Task_CallPreStop", "EndEvent_Drained");
        that(start("rejoin-generic")).isEnded().hasPassed("EndEvent_Rejoined");
        assertThat(calls).containsExactly("callPreStopEndpoint");
    }

    @Test
    void patroniReplicaIsDrainedWithoutASwitchover() {
        ProcessInstance pi = start("drain-patroni");
        that(pi).isEnded().hasPassed("EndEvent_Drained").hasNotPassed("Task_SwitchOver");
    }

    @Test
    void patroniLeaderWaitsForACandidateThenSwitchesOverAndWaitsForTheNewLeader() {
        answers("decidePatroniDrain", "WAIT", "WAIT", "SWITCHOVER");
        answers("confirmPatroniLeader", false, false, true);
        ProcessInstance pi = start("drain-patroni");
        drive();
        that(pi).isEnded().hasPassed("Timer_WaitForCluster", "Task_SwitchOver", "Timer_WaitForNewLeader", "EndEvent_LeadershipHandedOver");
        assertThat(calls).containsExactly("decidePatroniDrain", "decidePatroniDrain", "decidePatroniDrain", "switchOverPatroniLeader",
                "confirmPatroniLeader", "confirmPatroniLeader", "confirmPatroniLeader");
    }

    @Test
    void patroniRejoinWaitsUntilTheMemberStreams() {
        answers("checkPatroniStreaming", false, true);
        ProcessInstance pi = start("rejoin-patroni");
        drive();
        that(pi).isEnded().hasPassed("Timer_WaitForStreaming", "EndEvent_Rejoined");
        assertThat(calls).containsExactly("checkPatroniStreaming", "checkPatroniStreaming");
    }

    @Test
    void etcdFollowerWaitsForTheQuorumBudgetAndNeedsNoLeadershipMove() {
        answers("checkEtcdQuorum", false, true);
        ProcessInstance pi = start("drain-etcd");
        drive();
        that(pi).isEnded().hasPassed("Timer_WaitForQuorum", "EndEvent_Drained").hasNotPassed("Task_MoveLeadership");
    }

    @Test
    void etcdLeaderMovesLeadershipAwayFirst() {
        answers("checkEtcdQuorum.isLeader", true);
        answers("confirmEtcdLeader", false, true);
        ProcessInstance pi = start("drain-etcd");
        drive();
        that(pi).isEnded().hasPassed("Task_MoveLeadership", "EndEvent_LeadershipMoved");
        assertThat(calls).containsExactly("checkEtcdQuorum", "moveEtcdLeadership", "confirmEtcdLeader", "confirmEtcdLeader");
    }

    @Test
    void etcdRejoinWaitsUntilCaughtUp() {
        answers("checkEtcdMemberCaughtUp", false, false, true);
        ProcessInstance pi = start("rejoin-etcd");
        drive();
        that(pi).isEnded().hasPassed("EndEvent_Rejoined");
        assertThat(calls).hasSize(3);
    }

    @Test
    void consulLeaderNeedsFailureToleranceThenTransfersLeadership() {
        answers("checkConsulFailureTolerance", false, true);
        answers("checkConsulFailureTolerance.isLeader", false, true);
        ProcessInstance pi = start("drain-consul");
        drive();
        that(pi).isEnded().hasPassed("Timer_WaitForQuorum", "Task_MoveLeadership", "EndEvent_LeadershipMoved");
        assertThat(calls).containsExactly("checkConsulFailureTolerance", "checkConsulFailureTolerance", "transferConsulLeadership",
                "confirmConsulLeader");
    }

    @Test
    void consulRejoinWaitsUntilTheServerVotes() {
        answers("checkConsulVoter", false, true);
        ProcessInstance pi = start("rejoin-consul");
        drive();
        that(pi).isEnded().hasPassed("EndEvent_Rejoined");
    }

    @Test
    void runHookCallsTheWorkloadTypesProcedure() {
        answers("checkEtcdMemberCaughtUp", false, true);
        ProcessInstance pi = runHook("rejoin", "etcd", "ABANDON");
        drive();
        that(pi).isEnded().hasPassed("EndEvent_HookDone");
        assertThat(calls).containsExactly("checkEtcdMemberCaughtUp", "checkEtcdMemberCaughtUp");
    }

    @Test
    void aNewWorkloadTypeIsTwoDiagramsAndRunHookCallsThem() throws Exception {
        // docs/hooks.md's example, deployed as an operator would deploy it: no change to run-hook or the rollout.
        java.nio.file.Path examples = java.nio.file.Path.of("..", "docs", "examples", "hooks");
        String deployment = extension.getProcessEngine().getRepositoryService().createDeployment()
                .addInputStream("drain-redis.bpmn", java.nio.file.Files.newInputStream(examples.resolve("drain-redis.bpmn")))
                .addInputStream("rejoin-redis.bpmn", java.nio.file.Files.newInputStream(examples.resolve("rejoin-redis.bpmn")))
                .deploy().getId();
        try {
            ProcessInstance drain = runHook("drain", "redis", "ABANDON");
            drive();
            that(drain).isEnded().hasPassed("EndEvent_HookDone");
            ProcessInstance rejoin = runHook("rejoin", "redis", "ABANDON");
            drive();
            that(rejoin).isEnded().hasPassed("EndEvent_HookDone");
            assertThat(calls).containsExactly("callPreStopEndpoint");
        } finally {
            extension.getProcessEngine().getRepositoryService().deleteDeployment(deployment, true);
        }
    }

    @Test
    void aHookThatTimesOutUnderContinueGoesOn() {
        answers("checkEtcdQuorum", false, false, false, false);
        ProcessInstance pi = runHook("drain", "etcd", "CONTINUE");
        managementService().executeJob(managementService().createJobQuery().singleResult().getId()); // enter the hook
        Job timeout = managementService().createJobQuery().activityId("BoundaryEvent_HookTimedOut").singleResult();
        managementService().executeJob(timeout.getId());
        that(pi).isEnded().hasPassed("EndEvent_ContinuedByDefault");
        assertThat(runtimeService().createProcessInstanceQuery().processDefinitionKey("drain-etcd").count()).as("the hook was cancelled").isZero();
    }

    @Test
    void aHookThatFailsUnderAbandonWaitsForTheOperatorWhoMayContinue() {
        answers("checkEtcdQuorum", new BpmnError("HOOK_FAILED", "member list: 503"));
        ProcessInstance pi = runHook("drain", "etcd", "ABANDON");
        drive();
        that(pi).isWaitingAt("UserTask_HookDidNotFinish");
        String task = taskService().createTaskQuery().processInstanceId(pi.getId()).singleResult().getId();
        assertThat(taskService().getVariable(task, "hookFailure")).isEqualTo("the drain of db-1 failed: member list: 503");
        taskService().complete(task, Map.of("decision", "continue"));
        that(pi).isEnded().hasPassed("EndEvent_ContinuedByOperator");
    }

    @Test
    void scalingProceduresWithNothingToDoEndAtOnce() {
        for (String key : List.of("add-generic", "join-generic", "leave-generic", "add-patroni", "leave-patroni", "add-consul",
                "add-galera", "join-galera", "leave-galera")) {
            that(start(key)).as(key).isEnded().hasPassed("EndEvent_Done");
        }
        assertThat(calls).isEmpty();
    }

    /** A Galera drain asks again until the node has applied what it received; its rejoin resumes the node once. */
    @Test
    void aGaleraDrainWaitsForTheReceiveQueueAndItsRejoinResumesTheNode() {
        answers("desyncGaleraNode", false, false, true);
        ProcessInstance drain = start("drain-galera");
        drive();
        that(drain).isEnded().hasPassed("Timer_WaitAgain", "EndEvent_Done");
        answers("resumeGaleraNode", true);
        ProcessInstance rejoin = start("rejoin-galera");
        drive();
        that(rejoin).isEnded().hasPassed("EndEvent_Done").hasNotPassed("Timer_WaitAgain");
        assertThat(calls).containsExactly("desyncGaleraNode", "desyncGaleraNode", "desyncGaleraNode", "resumeGaleraNode");
    }

    @Test
    void etcdAddsALearnerOncePromotesItWhenInSyncAndRemovesItOnLeave() {
        answers("addEtcdLearner", false, true);
        ProcessInstance add = start("add-etcd");
        drive();
        that(add).isEnded().hasPassed("Timer_AddLearner", "EndEvent_Done");

        answers("promoteEtcdLearner", false, false, true);
        answers("checkEtcdMemberCaughtUp", false, true);
        ProcessInstance join = start("join-etcd");
        drive();
        that(join).isEnded().hasPassed("Timer_Promote", "Task_CheckCaughtUp", "Timer_CheckCaughtUp", "EndEvent_Done");

        ProcessInstance leave = start("leave-etcd");
        that(leave).isEnded().hasPassed("Task_RemoveMember", "EndEvent_Done");
        assertThat(calls).containsExactly("addEtcdLearner", "addEtcdLearner", "promoteEtcdLearner", "promoteEtcdLearner",
                "promoteEtcdLearner", "checkEtcdMemberCaughtUp", "checkEtcdMemberCaughtUp", "removeEtcdMember");
    }

    @Test
    void aPatroniReplicaJoinsOnceItStreamsAndAConsulServerOnceItVotes() {
        answers("checkPatroniStreaming", false, true);
        ProcessInstance patroni = start("join-patroni");
        drive();
        that(patroni).isEnded().hasPassed("Timer_CheckStreaming", "EndEvent_Done");
        answers("checkConsulVoter", false, true);
        ProcessInstance consul = start("join-consul");
        drive();
        that(consul).isEnded().hasPassed("Timer_CheckVoter", "EndEvent_Done");
        answers("leaveConsul", false, true);
        ProcessInstance leave = start("leave-consul");
        drive();
        that(leave).isEnded().hasPassed("Timer_Leave", "EndEvent_Done");
        assertThat(calls).containsExactly("checkPatroniStreaming", "checkPatroniStreaming", "checkConsulVoter", "checkConsulVoter",
                "leaveConsul", "leaveConsul");
    }

    @Test
    void aScalingHookRunsThroughRunHookLikeADrain() {
        answers("addEtcdLearner", new BpmnError("HOOK_FAILED", "no etcd peer URL for db-1"));
        ProcessInstance pi = runHook("add", "etcd", "ABANDON");
        drive();
        org.camunda.bpm.engine.task.Task task = taskService().createTaskQuery().processInstanceId(pi.getId()).singleResult();
        assertThat(task.getName()).isEqualTo("The add of db-1 did not finish: retry, continue anyway or abort");
        assertThat(runtimeService().getVariable(pi.getId(), "hookFailure")).isEqualTo("the add of db-1 failed: no etcd peer URL for db-1");
    }
}
