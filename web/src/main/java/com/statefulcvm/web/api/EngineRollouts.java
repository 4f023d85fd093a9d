package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/** Small reads of the engine about rollouts, shared by the set view, the rollout report and the control endpoints. */
@Component
public class EngineRollouts {

    static final String MESSAGE = "message";

    private final RuntimeService runtime;
    private final HistoryService history;

    EngineRollouts(RuntimeService runtime, HistoryService history) {
        this.runtime = runtime;
        this.history = history;
    }

    /** The newest unfinished rollout of the set (a rollback it started is newer than the rollout itself). */
    Optional<String> runningRolloutOf(String replicaSet) {
        return runningOf(RolloutVariables.PROCESS_KEY, replicaSet);
    }

    /** The newest unfinished instance of a procedure for the set (business key: the set's name) the caller may read. */
    Optional<String> runningOf(String processKey, String replicaSet) {
        return history.createHistoricProcessInstanceQuery()
                .processDefinitionKey(processKey)
                .processInstanceBusinessKey(replicaSet)
                .unfinished()
                .orderByProcessInstanceStartTime().desc()
                .listPage(0, 1).stream().findFirst().map(HistoricProcessInstance::getId);
    }

    public Optional<ProcessInstance> runningRollout(String processInstanceId) {
        return Optional.ofNullable(runtime.createProcessInstanceQuery()
                .processInstanceId(processInstanceId)
                .processDefinitionKey(RolloutVariables.PROCESS_KEY)
                .singleResult());
    }

    public Optional<HistoricProcessInstance> rollout(String processInstanceId) {
        return Optional.ofNullable(history.createHistoricProcessInstanceQuery()
                .processInstanceId(processInstanceId)
                .processDefinitionKey(RolloutVariables.PROCESS_KEY)
                .singleResult());
    }

    /** Paused: waiting at the catch event for the resume message (a requested pause takes effect at a wave boundary). */
    public boolean paused(String processInstanceId) {
        return subscriptions(processInstanceId, RolloutVariables.MESSAGE_RESUME) > 0;
    }

    public long subscriptions(String processInstanceId, String messageName) {
        return runtime.createEventSubscriptionQuery()
                .processInstanceId(processInstanceId)
                .eventType(MESSAGE)
                .eventName(messageName)
                .count();
    }

    /** A process-level variable of a running instance; null when unset or when the instance has just ended. */
    public Object variable(String processInstanceId, String name) {
        try {
            return runtime.getVariable(processInstanceId, name);
        } catch (ProcessEngineException endedMeanwhile) {
            return null;
        }
    }

    /** The stage of each running instance step (local to the step), or the rollout's own stage between steps. */
    String stage(String processInstanceId) {
        List<String> steps = runtime.createVariableInstanceQuery()
                .processInstanceIdIn(processInstanceId)
                .variableName(RolloutVariables.STAGE)
                .unlimitedList().stream()
                .filter(v -> !processInstanceId.equals(v.getExecutionId()) && v.getValue() != null)
                .map(v -> v.getValue().toString())
                .toList();
        if (!steps.isEmpty()) {
            return String.join("; ", steps);
        }
        Object stage = variable(processInstanceId, RolloutVariables.STAGE);
        return stage == null ? null : stage.toString();
    }

    ReplicaSetView.RunningRollout summary(String processInstanceId) {
        return new ReplicaSetView.RunningRollout(processInstanceId, stage(processInstanceId), paused(processInstanceId));
    }
}
