package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.SetCvms;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.failover.PatroniSet;
import com.statefulcvm.delegates.hooks.DecidePatroniDrain;
import com.statefulcvm.delegates.hooks.HookContext;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.hooks.PatroniDrain;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static com.statefulcvm.delegates.procedure.RolloutVariables.*;

/**
 * "Approve the leader's step", on create: puts on the task what the approver decides on: the leader, the instance steps
 * the rollout has finished so far, and what the leader's step will do, with the workload's own answer where it can
 * give one now (Patroni: the replica it would switch over to). What it cannot find out is said as such; it never
 * stops the rollout, since the drain itself decides again when it runs.
 */
@Component("describeLeaderStep")
public class DescribeLeaderStep implements TaskListener {

    private static final Logger log = LoggerFactory.getLogger(DescribeLeaderStep.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ReplicaSets replicaSets;
    private final SlotReader slots;
    private final PhalaCloudClient phala;
    private final InstanceUrlTemplate urls;

    public DescribeLeaderStep(ReplicaSets replicaSets, SlotReader slots, PhalaCloudClient phala, InstanceUrlTemplate urls) {
        this.replicaSets = replicaSets;
        this.slots = slots;
        this.phala = phala;
        this.urls = urls;
    }

    @Override
    public void notify(DelegateTask task) {
        DelegateExecution execution = task.getExecution();
        String leader = leaderOf(execution.getVariable(WAVE));
        task.setVariableLocal(LEADER_SLOT, leader);
        task.setVariableLocal(STEPS_SO_FAR, stepsSoFar(task));
        task.setVariableLocal(LEADER_STEP, leaderStep(execution, leader));
    }

    private static String leaderOf(Object wave) {
        return wave instanceof List<?> slots && !slots.isEmpty() ? String.valueOf(slots.get(0)) : String.valueOf(wave);
    }

    /** The instance steps this rollout has finished, oldest first, as GET /api/rollouts/{id} lists them. */
    private static String stepsSoFar(DelegateTask task) {
        List<JsonNode> done = new ArrayList<>();
        for (HistoricVariableInstance v : task.getProcessEngineServices().getHistoryService().createHistoricVariableInstanceQuery()
                .processInstanceId(task.getProcessInstanceId()).variableName(STEP_OUTCOME).list()) {
            if (v.getValue() == null) {
                continue;
            }
            try {
                done.add(JSON.readTree(v.getValue().toString()));
            } catch (Exception unreadable) {
                // a step recorded in another shape is left out of the text, not a reason to hold the approval back
            }
        }
        if (done.isEmpty()) {
            return "No instance step has finished yet.";
        }
        done.sort(Comparator.comparing(step -> step.path("at").asText("")));
        StringBuilder text = new StringBuilder();
        int n = 1;
        for (JsonNode step : done) {
            text.append(n++).append(". ").append(step.path("slot").asText()).append(' ').append(step.path("action").asText())
                    .append(": ").append(step.path("result").asText()).append(" (").append(step.path("at").asText()).append(")\n");
        }
        return text.toString().trim();
    }

    /** What the leader's step does, in the order the diagram does it. */
    private String leaderStep(DelegateExecution execution, String leader) {
        String action = execution.getVariable(ACTIONS) instanceof Map<?, ?> actions ? Objects.toString(actions.get(leader), "RESTART") : "RESTART";
        String type = Objects.toString(execution.getVariable(WORKLOAD_TYPE), "generic");
        boolean drains = "RESTART".equals(action) || "REPLACE".equals(action);
        StringBuilder text = new StringBuilder(leader).append(" leads the set; its action is ").append(action).append(".\n");
        if (drains) {
            text.append("1. Drain it (drain-").append(type).append("): ").append(handOver(execution, leader)).append('\n')
                    .append("2. ").append(action).append(" its CVM on the target compose.\n");
        } else {
            text.append("1. ").append(action).append(": the CVM is not taken down, leadership stays where it is.\n");
        }
        text.append(drains ? "3. " : "2. ").append("Attest it, wait until it is healthy, and let it rejoin (rejoin-").append(type).append(").");
        return text.toString();
    }

    /** Where leadership goes when the leader is drained: Patroni's answer now, else what the workload type says. */
    private String handOver(DelegateExecution execution, String leader) {
        if (PatroniSet.PATRONI.equals(execution.getVariable(WORKLOAD_TYPE))) {
            return patroniSwitchover(execution, leader);
        }
        String said = null;
        try {
            said = replicaSets.spec((String) execution.getVariable(REPLICA_SET)).workload().getLeaderHandover();
        } catch (RuntimeException unknown) {
            log.debug("no workload type to describe the leader's hand-over: {}", unknown.toString());
        }
        return said != null && !said.isBlank() ? said : "the workload's drain procedure runs first; it decides how leadership moves.";
    }

    private String patroniSwitchover(DelegateExecution execution, String leader) {
        String rule = "drain-patroni switches over to the healthy replica with the least lag, preferring one already updated";
        try {
            ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
            HookContext context = new HookContext(spec, leader, slots.find(spec, leader), SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec))),
                    (String) execution.getVariable(TARGET_COMPOSE), urls);
            PatroniDrain.Decision decision = DecidePatroniDrain.decide(context);
            return switch (decision.kind()) {
                case SWITCHOVER -> "Patroni switches over to " + decision.candidate() + " (asked now: " + decision.reason()
                        + "). The drain asks again when it runs.";
                case WAIT -> rule + "; asked now, Patroni has none: " + decision.reason();
                default -> "asked now, Patroni says: " + decision.reason();
            };
        } catch (RuntimeException unanswered) {
            log.debug("leader's step of {}: Patroni not asked: {}", leader, unanswered.getMessage());
            return rule + "; Patroni could not be asked now (" + unanswered.getMessage() + "), the drain decides when it runs.";
        }
    }
}
