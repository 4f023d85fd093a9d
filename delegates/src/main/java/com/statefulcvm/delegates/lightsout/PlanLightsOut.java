package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.*;
import static com.statefulcvm.delegates.procedure.RolloutVariables.ALLOWED_COMPOSE_HASHES;
import static com.statefulcvm.delegates.procedure.RolloutVariables.CVM_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HEALTH_PROBE_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_DEFAULT_RESULT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_POLL_INTERVAL;
import static com.statefulcvm.delegates.procedure.RolloutVariables.HOOK_TIMEOUT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WAVE;
import static com.statefulcvm.delegates.procedure.RolloutVariables.WORKLOAD_TYPE;

/**
 * "Plan the recovery": checks the request again (it may come from Tasklist or the engine's REST API) and sets what the
 * steps read: every slot of the set, the lights-out settings, the hook and health-gate settings, the compose hashes
 * attestation admits, and the instance_id each slot's epoch is bound to (else the registry's last one): a CVM that comes
 * back with another one has lost its disk, and attestation refuses it (AdmissionPolicy: a new identity is admitted only
 * for a CVM this orchestrator created), so it never takes the slot's old identity. A fenced slot is left alone (not
 * started, asked, seeded or joined) unless the start carries the operator's recorded override {@code readmitFenced}.
 * The procedure holds every slot of the set ({@code wave}) so that the health monitor heals none of them while it runs.
 */
@Component("planLightsOut")
public class PlanLightsOut implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final LightsOutChecks checks;
    private final InstanceRegistry registry;
    private final RevisionHistory revisions;
    private final RolloutSettings settings;
    private final SlotHealthRegistry slotHealth;
    private final FenceRegistry fences;

    public PlanLightsOut(ReplicaSets replicaSets, LightsOutChecks checks, InstanceRegistry registry, RevisionHistory revisions,
                         RolloutSettings settings, SlotHealthRegistry slotHealth, FenceRegistry fences) {
        this.fences = fences;
        this.replicaSets = replicaSets;
        this.checks = checks;
        this.registry = registry;
        this.revisions = revisions;
        this.settings = settings;
        this.slotHealth = slotHealth;
    }

    @Override
    public void execute(DelegateExecution execution) {
        String set = (String) execution.getVariable(REPLICA_SET);
        Optional<String> refusal = checks.refusal(set, execution.getProcessEngineServices().getRepositoryService());
        if (refusal.isPresent()) {
            execution.setVariable(REFUSAL, refusal.get());
            execution.setVariable(STAGE, "refused: " + refusal.get());
            return;
        }
        ReplicaSetSpec spec = replicaSets.spec(set);
        List<String> every = IntStream.range(0, spec.getReplicas()).mapToObj(spec::slotName).toList();
        // a fenced slot stays out (not started, asked, seeded or joined) unless the operator's recorded override says
        // otherwise; then its attestation decides, as a readmit's does
        boolean override = Boolean.TRUE.equals(execution.getVariable(READMIT_FENCED));
        Map<String, String> fenced = new LinkedHashMap<>();
        for (Fence fence : fences.fences(set)) {
            if (fence.ordinal() < spec.getReplicas()) {
                fenced.put(spec.slotName(fence.ordinal()), fence.summary());
            }
        }
        List<String> slots = new ArrayList<>(every);
        if (!override) {
            slots.removeAll(fenced.keySet());
        }
        // the identity each slot's epoch is bound to; else the last one the registry saw
        Map<String, String> known = new HashMap<>();
        for (InstanceRecord record : registry.instances(set)) {
            if (record.ordinal() < spec.getReplicas() && record.instanceId() != null) {
                known.put(record.slot(), record.instanceId());
            }
        }
        for (SlotHealth health : slotHealth.all(set)) {
            if (health.ordinal() < spec.getReplicas() && health.epochInstanceId() != null) {
                known.put(spec.slotName(health.ordinal()), health.epochInstanceId());
            }
        }
        execution.setVariable(REFUSAL, "");
        execution.setVariable(ALL_SLOTS, slots);
        execution.setVariable(FENCED_SLOTS, override ? new LinkedHashMap<String, String>() : fenced);
        execution.setVariable(READMIT_FENCED, override);
        if (override && !fenced.isEmpty()) {
            execution.setVariable(LightsOutVariables.FENCES_OVERRIDDEN, new LinkedHashMap<>(fenced));
        }
        execution.setVariable(WAVE, new ArrayList<>(every));
        execution.setVariable(KNOWN_INSTANCE_IDS, known);
        // a recovery the health monitor proposed for an outage is always an operator's decision
        execution.setVariable(APPROVAL_REQUIRED, spec.getLightsOut().isApproval()
                || LightsOutVariables.TRIGGER_OUTAGE.equals(execution.getVariable(LightsOutVariables.LIGHTS_OUT_TRIGGER)));
        execution.setVariable(SEQUENCE_TIMEOUT, Duration.ofSeconds(spec.getLightsOut().getSequenceTimeoutSeconds()).toString());
        execution.setVariable(SEED_TIMEOUT, Duration.ofSeconds(spec.getLightsOut().getSeedTimeoutSeconds()).toString());
        execution.setVariable(SEQUENCE_NUMBERS, new LinkedHashMap<String, Long>());
        execution.setVariable(SEQUENCE_SOURCES, new LinkedHashMap<String, String>());
        execution.setVariable(UNANSWERED, new LinkedHashMap<String, String>());
        execution.setVariable(SEQUENCE_GENERATIONS, new LinkedHashMap<String, Long>());
        execution.setVariable(FOLLOWERS_NOT_JOINED, new LinkedHashMap<String, String>());
        execution.setVariable(ALLOWED_COMPOSE_HASHES, allowedComposeHashes(set));
        execution.setVariable(WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(LightsOutVariables.QUORUM_RULE, spec.workload().quorumRule().toString());
        execution.setVariable(HOOK_TIMEOUT, Duration.ofSeconds(spec.getHooks().getTimeoutSeconds()).toString());
        execution.setVariable(HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HOOK_DEFAULT_RESULT, spec.getHooks().getDefaultResult().name());
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HEALTH_PROBE_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(STAGE, "planned: start " + String.join(", ", slots) + " held back and ask each for its sequence number"
                + (fenced.isEmpty() ? "" : override ? "; fenced slots included by the operator's override: " + fenced.keySet()
                : "; fenced, left alone: " + fenced.keySet()));
    }

    private List<String> allowedComposeHashes(String set) {
        Set<String> hashes = new LinkedHashSet<>();
        revisions.currentRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        revisions.updateRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        hashes.removeIf(Objects::isNull);
        return new ArrayList<>(hashes);
    }
}
