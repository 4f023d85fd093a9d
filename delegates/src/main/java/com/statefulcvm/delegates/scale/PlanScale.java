package com.statefulcvm.delegates.scale;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.support.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.scaling.RetainedSlot;
import com.statefulcvm.fleet.scaling.ScalePlan;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static com.statefulcvm.delegates.rollout.RolloutVariables.ACTIONS;
import static com.statefulcvm.delegates.rollout.RolloutVariables.ALLOWED_COMPOSE_HASHES;
import static com.statefulcvm.delegates.rollout.RolloutVariables.BOUND_INSTANCE_IDS;
import static com.statefulcvm.delegates.rollout.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HEALTH_PROBE_INTERVAL;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.rollout.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.rollout.RolloutVariables.PROGRESS_DEADLINE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_COMPOSE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.WORKLOAD_TYPE;
import static com.statefulcvm.delegates.scale.ScaleVariables.*;

/**
 * "Plan the scale": checks the request again (a scale may be started from Tasklist or the engine's REST API, not only
 * from ours) and decides, from the set's desired count and the CVMs Phala lists, which slots to add or remove
 * ({@link ScalePlan}). Also sets what the shared steps read: the compose a new CVM gets (the set's current revision),
 * the compose hashes attestation admits, the hook and poll settings, and the progress deadline of each slot.
 */
@Component("planScale")
public class PlanScale implements JavaDelegate {

    /** The per-type procedures a scale calls through run-hook.bpmn; a type without them cannot be scaled. */
    static final List<String> HOOKS = List.of("add", "join", "leave");

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final ScaleRegistry scales;
    private final RevisionHistory revisions;
    private final RolloutSettings settings;

    public PlanScale(ReplicaSets replicaSets, PhalaCloudClient phala, ScaleRegistry scales, RevisionHistory revisions,
                     RolloutSettings settings) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.scales = scales;
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
        int max = spec.getScaling().maxReplicasFor(file.getReplicas(), FleetValidator.MAX_REPLICAS);
        Object requested = execution.getVariable(REQUESTED_REPLICAS);
        Optional<String> refusal = ScalePlan.refusal(requested, max).or(() -> missingHooks(execution, spec.getWorkloadType()));
        if (refusal.isPresent()) {
            refuse(execution, refusal.get());
            return;
        }
        Set<Integer> retained = scales.retained(set).stream().map(RetainedSlot::ordinal).collect(Collectors.toSet());
        Set<Integer> withCvm = new HashSet<>();
        for (CvmInfo cvm : phala.listAppCvms(replicaSets.appId(spec))) {
            Slots.ordinalOf(set, cvm.name()).ifPresent(o -> {
                if (!retained.contains(o) && !"deleting".equals(cvm.status())) {
                    withCvm.add(o);
                }
            });
        }
        int minReplicas = spec.getScaling().minReplicasFor(spec.getWorkloadType());
        ScalePlan plan = ScalePlan.of(spec.getReplicas(), ((Number) requested).intValue(), minReplicas, withCvm);

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

    private static Optional<String> missingHooks(DelegateExecution execution, String workloadType) {
        RepositoryService repository = execution.getProcessEngineServices().getRepositoryService();
        List<String> missing = HOOKS.stream().map(h -> h + "-" + workloadType)
                .filter(key -> repository.createProcessDefinitionQuery().processDefinitionKey(key).count() == 0).toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of("workload type '" + workloadType + "' cannot be scaled: "
                + "no procedure " + String.join(", ", missing) + " is deployed (docs/scaling.md, adding a workload type)");
    }

    private static void refuse(DelegateExecution execution, String why) {
        execution.setVariable(DIRECTION, REFUSED);
        execution.setVariable(SCALE_REFUSAL, why);
        execution.setVariable(STAGE, "refused: " + why);
    }
}
