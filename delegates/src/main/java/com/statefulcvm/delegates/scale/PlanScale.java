package com.statefulcvm.delegates.scale;

import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.scaling.ScalePlan;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static com.statefulcvm.delegates.procedure.RolloutVariables.ALLOWED_COMPOSE_HASHES;
import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HEALTH_PROBE_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.PROGRESS_DEADLINE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_COMPOSE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;
import static com.statefulcvm.delegates.procedure.ScaleVariables.*;

/**
 * "Plan the scale": checks the request again (a scale may be started from Tasklist or the engine's REST API, not only
 * from ours) and decides, from the set's desired count and the CVMs Phala lists, which slots to add or remove
 * ({@link ScalePlan}). Also sets what the shared steps read: the compose a new CVM gets (the set's current revision),
 * the compose hashes attestation admits, the hook and poll settings, and the progress deadline of each slot.
 */
@Component("planScale")
public class PlanScale implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final ScalePlanning planning;
    private final RevisionHistory revisions;
    private final RolloutSettings settings;

    public PlanScale(ReplicaSets replicaSets, ScalePlanning planning, RevisionHistory revisions, RolloutSettings settings) {
        this.replicaSets = replicaSets;
        this.planning = planning;
        this.revisions = revisions;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        if (!replicaSets.exists(set)) {
            refuse(execution, "unknown replica set '" + set + "'");
            return;
        }
        ReplicaSetSpec file = replicaSets.fileSpec(set);
        ReplicaSetSpec spec = replicaSets.spec(set);
        Object requested = execution.getVariable(REQUESTED_REPLICAS);
        Optional<String> refusal = planning.refusal(set, requested, execution.getProcessEngineServices().getRepositoryService());
        if (refusal.isPresent()) {
            refuse(execution, refusal.get());
            return;
        }
        int minReplicas = spec.minReplicas();
        ScalePlan plan = planning.plan(set, ((Number) requested).intValue());

        execution.setVariable(CURRENT_REPLICAS, plan.current());
        execution.setVariable(FILE_REPLICAS, file.getReplicas());
        execution.setVariable(DIRECTION, plan.direction().name());
        execution.setVariable(SLOTS_TO_ADD, new ArrayList<>(plan.toAdd().stream().map(spec::slotName).toList()));
        execution.setVariable(SLOTS_TO_REMOVE, new ArrayList<>(plan.toRemove().stream().map(spec::slotName).toList()));
        execution.setVariable(MIN_REPLICAS, minReplicas);
        execution.setVariable(NEEDS_APPROVAL, plan.needsApproval());
        execution.setVariable(SCALE_DOWN_POLICY, spec.getScaling().getScaleDown().name());
        execution.setVariable(PLAN_SUMMARY, plan.summary(set));

        Optional<Revision> current = revisions.currentRevision(set);
        execution.setVariable(TARGET_COMPOSE, ComposeValue.of(current.map(Revision::dockerCompose).orElse(spec.getDockerCompose())));
        execution.setVariable(ALLOWED_COMPOSE_HASHES, allowedComposeHashes(set));
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
        execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HEALTH_PROBE_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(PROGRESS_DEADLINE, Duration.ofSeconds(spec.getUpdatePolicy().getProgressDeadlineSeconds()).toString());
        execution.setVariable(STAGE, "planned: " + plan.summary(set));
    }

    /** The set's current and update revisions' hashes, and the hashes its CVMs run now: what a new slot may run. */
    private List<String> allowedComposeHashes(String set) {
        Set<String> hashes = new LinkedHashSet<>();
        revisions.currentRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        revisions.updateRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        hashes.removeIf(Objects::isNull);
        return new ArrayList<>(hashes);
    }

    private static void refuse(DelegateExecution execution, String why) {
        execution.setVariable(DIRECTION, REFUSED);
        execution.setVariable(SCALE_REFUSAL, why);
        execution.setVariable(STAGE, "refused: " + why);
    }
}
