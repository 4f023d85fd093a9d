package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.AutomaticRollback;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.EffectivePolicy;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutPlanning;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.PolicyOverrideChanges;
import com.statefulcvm.fleet.rollout.InstanceSnapshot;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.rollout.RolloutPlan;
import com.statefulcvm.fleet.rollout.RolloutPlanner;
import com.statefulcvm.fleet.UpdatePolicy;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.*;

/**
 * "Plan the rollout": observes the set, asks the planner for waves, records the target as the set's update revision,
 * and sets what the diagram's gates read. A refused plan changes nothing and ends the rollout with the reason.
 */
@Component("planRollout")
public class PlanRollout implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(PlanRollout.class);

    private final ReplicaSets replicaSets;
    private final RolloutPlanning planning;
    private final EffectivePolicy policies;
    private final RevisionHistory revisions;
    private final RolloutSettings settings;

    public PlanRollout(ReplicaSets replicaSets, RolloutPlanning planning, EffectivePolicy policies, RevisionHistory revisions,
                       RolloutSettings settings) {
        this.replicaSets = replicaSets;
        this.planning = planning;
        this.policies = policies;
        this.revisions = revisions;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
        String target = (String) execution.getVariable(TARGET_COMPOSE);
        boolean automaticRollback = AutomaticRollback.of(execution).isPresent();
        UpdatePolicy policy = policies.of(spec, execution);
        RolloutPlanning.Observed observed = planning.observe(spec, policy);
        List<InstanceSnapshot> snapshots = observed.snapshots();
        List<String> envKeys = EnvUpdater.envKeys(execution);
        RolloutPlan plan = planning.plan(spec, policy, snapshots, target, EffectivePolicy.targetOrdinals(execution), envKeys);

        execution.setVariable(PLAN_SUMMARY, forDisplay(plan.summary(), "the whole plan: POST /api/replica-sets/"
                + spec.getName() + "/rollouts/plan"));
        execution.setVariable(COMPOSE_DIFF, forDisplay(ComposeText.diff(currentCompose(plan, snapshots), target)
                        + (envKeys.isEmpty() ? "" : "\n" + RolloutPlanner.envChange(envKeys) + " (values encrypted, not shown)\n"),
                "the whole compose: GET /api/replica-sets/" + spec.getName() + "/revisions"));
        execution.setVariable(RolloutVariables.PLAN_REFUSED, plan.refused());
        if (plan.refused()) {
            String refusal = "refused: " + String.join("; ", plan.refusals());
            execution.setVariable(OUTCOME, refusal);
            execution.setVariable(STAGE, refusal);
            // the start was accepted before this plan: the log says why the rollout ends at once, as its report does
            log.warn("Rollout {} of '{}' {}", execution.getProcessInstanceId(), spec.getName(), refusal);
            return;
        }
        Optional<Revision> lastGood = revisions.currentRevision(spec.getName());
        String requestedBy = Objects.toString(execution.getVariable(REQUESTED_BY), "unknown");
        Revision update = revisions.record(spec.getName(), target, requestedBy, reason(execution)
                + (envKeys.isEmpty() ? "" : "; env change (" + String.join(", ", envKeys) + ")"));
        revisions.setUpdateRevision(spec.getName(), update.number());

        // Each slot stays bound to the instance_id it has now: an in-place update keeps it, anything else is suspect.
        Map<String, String> boundInstanceIds = new HashMap<>();
        observed.records().stream().filter(r -> r.instanceId() != null).forEach(r -> boundInstanceIds.put(r.slot(), r.instanceId()));

        List<List<String>> waves = new ArrayList<>();
        // The surge instances are the diagram's wave 0: created, attested and healthy before any old one goes down.
        if (!plan.surgeSlots().isEmpty()) {
            waves.add(new ArrayList<>(plan.surgeSlots()));
        }
        plan.waves().forEach(wave -> waves.add(new ArrayList<>(wave)));
        execution.setVariable(WAVES, waves);
        execution.setVariable(SLOTS, new ArrayList<>(plan.slotsToUpdate()));
        execution.setVariable(SURGE_SLOTS, new ArrayList<>(plan.surgeSlots()));
        execution.setVariable(ACTIONS, new HashMap<>(plan.actionsBySlot()));
        // Each field the request's override changes is shown on the approval beside the file's value; one that removes an
        // approval the file asks for is decided there by an approver, even where the file asks for no approval before.
        PolicyOverrideChanges overrides = PolicyOverrideChanges.between(spec.getUpdatePolicy(), policy);
        execution.setVariable(POLICY_OVERRIDES, overrides.display());
        execution.setVariable(OVERRIDES_WEAKEN_APPROVALS, !automaticRollback && overrides.weakensApprovals());
        execution.setVariable(APPROVAL_BEFORE_ROLLOUT, !automaticRollback
                && (spec.getApprovals().isBeforeRollout() || overrides.weakensApprovals()) && !waves.isEmpty());
        execution.setVariable(APPROVAL_BETWEEN_INSTANCES, !automaticRollback && spec.getApprovals().isBetweenInstances());
        // An automatic rollback runs without an operator, as onFailure ROLLBACK asks: no approval of its leader's step.
        execution.setVariable(LEADER_STEPS, new ArrayList<>(automaticRollback ? List.of() : plan.leaderSteps()));
        execution.setVariable(ON_FAILURE, policy.getOnFailure().name());
        execution.setVariable(PAUSE_REQUESTED, false);
        execution.setVariable(UPDATE_REVISION, update.number());
        execution.setVariable(LAST_GOOD_REVISION, lastGood.map(Revision::number).orElse(null));
        execution.setVariable(RolloutVariables.LAST_GOOD_COMPOSE, ComposeValue.of(lastGood.map(Revision::dockerCompose).orElseGet(() -> firstOtherCompose(snapshots, target))));
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(CVM_WAIT_FALLBACK, settings.cvmWaitFallbackIso());
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
        execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
        execution.setVariable(DRAIN_HOOK_NEEDED, spec.drainDoesWork());
        execution.setVariable(REPLACEMENT_IS_NEW_MEMBER, spec.replacementIsNewMember());
        execution.setVariable(REJOIN_HOOK_NEEDED, spec.rejoinDoesWork());
        execution.setVariable(HEALTH_PROBE_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(PROGRESS_DEADLINE, Duration.ofSeconds(policy.getProgressDeadlineSeconds()).toString());
        execution.setVariable(BOUND_INSTANCE_IDS, boundInstanceIds);
        // For these the planned action is the compose update itself: a re-run of the apply step that finds the target
        // in place must not restart the CVM on top of it (SlotReconciler).
        execution.setVariable(RolloutVariables.COMPOSE_CHANGE_SLOTS, new ArrayList<>(snapshots.stream()
                .filter(s -> s.dockerCompose() != null && !ComposeText.same(s.dockerCompose(), target))
                .map(InstanceSnapshot::slot).toList()));
        execution.setVariable(ALLOWED_COMPOSE_HASHES, new ArrayList<>(snapshots.stream().map(InstanceSnapshot::composeHash)
                .filter(Objects::nonNull).distinct().toList()));
        execution.setVariable(STAGE, "planned: " + plan.slotsToUpdate().size() + " of " + spec.getReplicas() + " instances in "
                + waves.size() + " waves" + (plan.surgeSlots().isEmpty() ? "" : ", " + plan.surgeSlots().size() + " surge")
                + " to revision " + update.number());
    }

    /** Camunda keeps a String variable in 4000 characters; a 50-instance plan is longer, and must not stop the rollout. */
    static final int MAX_DISPLAY_CHARS = 4000;

    static String forDisplay(String text, String whereTheRestIs) {
        if (text.length() <= MAX_DISPLAY_CHARS) {
            return text;
        }
        String tail = "\n… cut here; " + whereTheRestIs;
        return text.substring(0, MAX_DISPLAY_CHARS - tail.length()) + tail;
    }

    private static String reason(DelegateExecution execution) {
        Optional<String> failed = AutomaticRollback.of(execution);
        if (failed.isPresent()) {
            return "automatic rollback of rollout " + failed.get();
        }
        if (execution.getVariable(ROLLBACK_TO_REVISION) != null) {
            return "rollback to revision " + execution.getVariable(ROLLBACK_TO_REVISION) + " by rollout " + execution.getProcessInstanceId();
        }
        return "rollout " + execution.getProcessInstanceId();
    }

    /** Without a recorded revision, the last good compose is what the instances not yet on the target run. */
    private static String firstOtherCompose(List<InstanceSnapshot> snapshots, String target) {
        return snapshots.stream().map(InstanceSnapshot::dockerCompose)
                .filter(c -> c != null && !ComposeText.same(c, target)).findFirst().orElse(null);
    }

    /** What the approver compares against: the compose of the first instance the rollout will touch. */
    private static String currentCompose(RolloutPlan plan, List<InstanceSnapshot> snapshots) {
        List<String> slots = plan.slotsToUpdate();
        if (slots.isEmpty()) {
            return snapshots.isEmpty() ? "" : snapshots.get(0).dockerCompose();
        }
        return snapshots.stream().filter(s -> s.slot().equals(slots.get(0))).findFirst()
                .map(InstanceSnapshot::dockerCompose).orElse("");
    }
}
