package com.statefulcvm.delegates.heal;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.rollout.RolloutAction;
import com.statefulcvm.fleet.healing.ReplacementRevision;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import static com.statefulcvm.delegates.procedure.HealVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.ALLOWED_COMPOSE_HASHES;
import static com.statefulcvm.delegates.procedure.RolloutVariables.BOUND_INSTANCE_IDS;
import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HEALTH_PROBE_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.REPLACEMENT_IS_NEW_MEMBER;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.TARGET_COMPOSE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;

/**
 * "Prepare the heal": looks at the slot once and sets what the diagram's gates and the shared steps read. The heal
 * plans one action per phase for its slot, as the rollout's planner does: RESTART (keeps the disk and the
 * instance_id) and, if that cannot bring the instance back, REPLACE (a new CVM with the slot's revision, an empty
 * disk, a new instance_id), so that "Apply the planned action", "Check the CVM is running and settled", the
 * attestation and the health gate are the rollout's own steps.
 */
@Component("prepareHeal")
public class PrepareHeal implements JavaDelegate {

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final InstanceRegistry registry;
    private final RevisionHistory revisions;
    private final SlotHealthRegistry slotHealth;
    private final RolloutSettings settings;

    public PrepareHeal(SlotReader slots, ReplicaSets replicaSets, InstanceRegistry registry, RevisionHistory revisions,
                       SlotHealthRegistry slotHealth, RolloutSettings settings) {
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.registry = registry;
        this.revisions = revisions;
        this.slotHealth = slotHealth;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        int ordinal = replicaSets.ordinalOf(spec, slot);
        Optional<CvmInfo> found = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        Optional<InstanceRecord> record = registry.instance(spec.getName(), ordinal);

        Optional<SlotHealth> health = slotHealth.get(spec.getName(), ordinal);
        // The identity the slot had: the CVM's, else the registry's, else the monitor's (it keeps the last one it saw
        // after the registry has marked the slot missing).
        String boundInstanceId = found.map(CvmInfo::instanceId)
                .or(() -> record.map(InstanceRecord::instanceId))
                .or(() -> health.map(SlotHealth::instanceId))
                .orElse(null);
        String composeHash = found.map(CvmInfo::composeHash).orElse(record.map(InstanceRecord::composeHash).orElse(null));
        Optional<Revision> revision = revisionOf(spec.getName(), composeHash);

        execution.setVariable(HEAL_APPROVAL, spec.getAutoHealing().getApproval().name());
        execution.setVariable(ON_DATA_LOSS, spec.getAutoHealing().getOnDataLoss().name());
        execution.setVariable(CVM_PRESENT, found.isPresent());
        execution.setVariable(CVM_REACHABLE, found.map(c -> c.isRunning() && c.isSettled()).orElse(false));
        execution.setVariable(RESTART_COMPOSE, ComposeValue.of(found.map(CvmInfo::dockerCompose).orElse(null)));
        Optional<Revision> replacement = ReplacementRevision.choose(spec.getUpdatePolicy().getType(), revision,
                revisions.updateRevision(spec.getName()));
        execution.setVariable(TARGET_COMPOSE, ComposeValue.of(replacement.map(Revision::dockerCompose).orElse(spec.getDockerCompose())));
        execution.setVariable(RESTART_ACTIONS, new HashMap<>(Map.of(slot, RolloutAction.RESTART.name())));
        execution.setVariable(REPLACE_ACTIONS, new HashMap<>(Map.of(slot, RolloutAction.REPLACE.name())));
        execution.setVariable(BOUND_INSTANCE_ID, boundInstanceId);
        Map<String, String> bound = new HashMap<>();
        if (boundInstanceId != null) {
            bound.put(slot, boundInstanceId);
        }
        execution.setVariable(BOUND_INSTANCE_IDS, bound);
        execution.setVariable(ALLOWED_COMPOSE_HASHES, allowedComposeHashes(spec.getName(), composeHash, revision));
        execution.setVariable(EPOCH, health.map(SlotHealth::epoch).orElse(0));
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HEALTH_PROBE_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(HEAL_DEADLINE, Duration.ofSeconds(spec.getUpdatePolicy().getProgressDeadlineSeconds()).toString());
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(REPLACEMENT_IS_NEW_MEMBER, spec.replacementIsNewMember());
        execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
        execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
        execution.setVariable(HEAL_FAILURE, null);
        execution.setVariable(HEAL_RESULT, null);
        execution.setVariable(STAGE, found.map(c -> "healing " + slot + ": CVM " + c.name() + " is " + c.status()
                        + (c.isSettled() ? "" : " (operation in progress)") + ", instance " + c.instanceId())
                .orElse("healing " + slot + ": the slot has no CVM (last instance " + boundInstanceId + ")"));
    }

    private Optional<Revision> revisionOf(String set, String composeHash) {
        if (composeHash != null) {
            Optional<Revision> same = revisions.revisions(set).stream().filter(r -> composeHash.equals(r.composeHash())).findFirst();
            if (same.isPresent()) {
                return same;
            }
        }
        return revisions.currentRevision(set);
    }

    /** The slot's own revision, and the set's current and update revisions, as far as Phala's hashes are known. */
    private List<String> allowedComposeHashes(String set, String composeHash, Optional<Revision> revision) {
        Set<String> hashes = new LinkedHashSet<>();
        hashes.add(composeHash);
        revision.map(Revision::composeHash).ifPresent(hashes::add);
        revisions.currentRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        revisions.updateRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        hashes.removeIf(Objects::isNull);
        return new ArrayList<>(hashes);
    }
}
