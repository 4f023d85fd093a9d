package com.statefulcvm.web.api;

import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.InstanceCondition;
import com.statefulcvm.fleet.InstanceConditions;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import com.statefulcvm.fleet.scaling.ScaledCount;
import com.statefulcvm.web.status.RevisionComposeHashes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** Builds a set's status: readiness from the Ready condition, revisions, the running rollout, conditions per instance. */
@Component
class ReplicaSetStatus {

    private static final Logger log = LoggerFactory.getLogger(ReplicaSetStatus.class);

    private final ReplicaSets replicaSets;
    private final InstanceConditions conditions;
    private final RevisionHistory revisions;
    private final RevisionComposeHashes composeHashes;
    private final EngineRollouts rollouts;
    private final ScaleRegistry scales;
    private final FenceRegistry fences;
    private final RefusalRegistry refusals;
    private final PinnedPlatforms pins;
    private final OutageRegistry outages;

    private final Adoptions adoptions;
    private final EnvRegistry envs;

    ReplicaSetStatus(ReplicaSets replicaSets, InstanceConditions conditions, RevisionHistory revisions,
                     RevisionComposeHashes composeHashes, EngineRollouts rollouts, ScaleRegistry scales, FenceRegistry fences,
                     RefusalRegistry refusals, PinnedPlatforms pins, OutageRegistry outages, Adoptions adoptions, EnvRegistry envs) {
        this.adoptions = adoptions;
        this.envs = envs;
        this.refusals = refusals;
        this.pins = pins;
        this.outages = outages;
        this.scales = scales;
        this.fences = fences;
        this.replicaSets = replicaSets;
        this.conditions = conditions;
        this.revisions = revisions;
        this.composeHashes = composeHashes;
        this.rollouts = rollouts;
    }

    /**
     * @param detail the detail read: instances and their conditions, and (having just read Phala anyway) the update
     *               revision's compose hash is learnt from an instance when nobody has recorded it yet
     */
    ReplicaSetView view(ReplicaSetSpec spec, List<InstanceRecord> records, boolean detail, String error) {
        String appId;
        try {
            appId = replicaSets.appId(spec);
        } catch (IllegalStateException notYetCreated) {
            appId = null;
        }
        Map<Integer, List<InstanceCondition>> byOrdinal = conditions.conditions(spec.getName()).stream()
                .collect(Collectors.groupingBy(InstanceCondition::ordinal));
        List<InstanceRecord> inSet = records.stream().filter(r -> r.ordinal() < spec.getReplicas()).toList();
        Map<Integer, Fence> fenced = fences.fences(spec.getName()).stream().collect(Collectors.toMap(Fence::ordinal, f -> f));
        List<Refusal> standing = refusals.refusals(spec.getName());
        Map<Integer, Refusal> refused = standing.stream().collect(Collectors.toMap(Refusal::ordinal, r -> r));
        List<SlotEnv> envDrifts = envs.slots(spec.getName()).stream().filter(SlotEnv::drifted).toList();
        Map<Integer, SlotEnv> envDrifted = envDrifts.stream().collect(Collectors.toMap(SlotEnv::ordinal, e -> e));
        // a fenced instance is kept out of the workload, a refused one is not admitted: never ready, whatever its last
        // probe said
        int ready = (int) inSet.stream().filter(r -> !fenced.containsKey(r.ordinal()) && !refused.containsKey(r.ordinal()))
                .filter(r -> ready(r, byOrdinal.getOrDefault(r.ordinal(), List.of()))).count();

        Optional<Revision> current = revisions.currentRevision(spec.getName());
        Optional<Revision> update = revisions.updateRevision(spec.getName()).or(() -> current);
        Integer updated = update.map(revision -> updatedReplicas(revision, inSet, detail && error == null)).orElse(null);

        Map<Integer, Integer> revisionOf = revisionOfEachSlot(spec.getName(), inSet);
        ReplicaSetView.RunningRollout rollout = rollouts.runningRolloutOf(spec.getName()).map(rollouts::summary).orElse(null);
        List<ReplicaSetView.InstanceView> instances = detail
                ? records.stream().filter(r -> r.ordinal() < spec.getReplicas()).map(r -> ReplicaSetView.InstanceView.of(r, byOrdinal.getOrDefault(r.ordinal(), List.of()).stream()
                        .map(ReplicaSetView.ConditionView::of).toList(), Optional.ofNullable(fenced.get(r.ordinal())), Optional.ofNullable(refused.get(r.ordinal())),
                        drift(current, refused.get(r.ordinal())), SetConditions.envDrift(envDrifted.get(r.ordinal())),
                        spec.slotSpec(r.ordinal()), revisionOf.get(r.ordinal()))).toList()
                : null;
        return new ReplicaSetView(spec.getName(), appId, spec.getWorkloadType(), spec.getReplicas(), ready, updated,
                current.map(Revision::number).orElse(null), update.map(Revision::number).orElse(null), rollout, instances, error,
                scaling(spec), DisruptionBudget.of(spec).describe(), setConditions(spec, standing, envDrifts, ready >= spec.getReplicas()),
                attestationPolicy(spec, pins.pinned(spec.getName()).size()), mixed(inSet, revisionOf));
    }

    /** The revision whose recorded compose hash each slot's instance runs, by ordinal; absent: none of them. */
    private Map<Integer, Integer> revisionOfEachSlot(String replicaSet, List<InstanceRecord> inSet) {
        Map<String, Integer> byHash = new java.util.HashMap<>();
        revisions.revisions(replicaSet).stream().filter(r -> r.composeHash() != null)
                .forEach(r -> byHash.merge(r.composeHash(), r.number(), Math::max)); // a rollback re-records an old compose
        Map<Integer, Integer> out = new java.util.HashMap<>();
        inSet.stream().filter(r -> r.composeHash() != null && byHash.containsKey(r.composeHash()))
                .forEach(r -> out.put(r.ordinal(), byHash.get(r.composeHash())));
        return out;
    }

    /** Each slot with its revision while slots run different recorded revisions; null while they agree. */
    private static List<ReplicaSetView.SlotRevision> mixed(List<InstanceRecord> inSet, Map<Integer, Integer> revisionOf) {
        List<InstanceRecord> running = inSet.stream().filter(r -> r.composeHash() != null).toList();
        // a slot on no recorded revision is Drifted's to report, or its revision's hash is not learnt yet
        if (running.stream().map(r -> revisionOf.get(r.ordinal())).filter(Objects::nonNull).distinct().count() <= 1) {
            return null;
        }
        return running.stream().sorted(java.util.Comparator.comparingInt(InstanceRecord::ordinal))
                .map(r -> new ReplicaSetView.SlotRevision(r.ordinal(), r.slot(), revisionOf.get(r.ordinal()))).toList();
    }

    /** What admission pins, in words; "ANY" visibly so, which the fleet validator allows only with the simulator. */
    static String attestationPolicy(ReplicaSetSpec spec, int pinnedByApprovers) {
        var attestation = spec.getAttestation();
        if (!attestation.isRequired()) {
            return "attestation not required";
        }
        int platforms = attestation.getPlatforms() == null ? 0 : attestation.getPlatforms().size();
        int keys = attestation.getKmsKeyIds() == null ? 0 : attestation.getKmsKeyIds().size();
        return "platforms: " + (platforms == 0 ? "ANY (no MRTD/RTMR0-2 pinned: built-in simulator only)" : platforms + " pinned"
                + (pinnedByApprovers == 0 ? "" : ", " + pinnedByApprovers + " more pinned by approvers after refusals"))
                + "; KMS key: " + (keys == 0 ? "ANY (none pinned: built-in simulator only)" : keys + " pinned");
    }

    /** The diff from the current revision to what a drifted, refused instance runs; null when it did not drift. */
    private static String drift(Optional<Revision> current, Refusal refusal) {
        return refusal == null || !refusal.drifted() ? null
                : com.statefulcvm.fleet.ComposeText.diff(current.map(Revision::dockerCompose).orElse(""), refusal.runningCompose());
    }

    /**
     * The set's own conditions: AwaitingAdoption while its app, made elsewhere, is only observed; Outage while the health monitor sees more slots down than the budget tolerates;
     * AttestationRefused while slots refused beyond the budget keep running unadmitted, each with its cause; Drifted
     * while some of them run a compose or an env changed behind our back (the diff, or who changed the env, is on each
     * instance).
     */
    private List<ReplicaSetView.ConditionView> setConditions(ReplicaSetSpec spec, List<Refusal> standing, List<SlotEnv> envDrifts,
                                                             boolean allReady) {
        List<ReplicaSetView.ConditionView> out = new java.util.ArrayList<>();
        if (adoptions.awaitsAdoption(spec)) {
            out.add(new ReplicaSetView.ConditionView("AwaitingAdoption", true, SetConditions.awaitingAdoptionReason(spec), null));
        }
        // every replica ready: the outage is over, whatever the monitor recorded before its next round
        outages.outage(spec.getName()).filter(o -> !allReady)
                .ifPresent(o -> out.add(new ReplicaSetView.ConditionView("Outage", true, o.condition(), o.since())));
        if (!standing.isEmpty()) {
            out.add(new ReplicaSetView.ConditionView("AttestationRefused", true, SetConditions.refusedReason(spec, standing),
                    standing.stream().map(Refusal::refusedAt).min(java.util.Comparator.naturalOrder()).orElse(null)));
        }
        String drifted = SetConditions.driftedReason(spec, standing, envDrifts);
        if (drifted != null) {
            out.add(new ReplicaSetView.ConditionView("Drifted", true, drifted, java.util.stream.Stream.concat(
                    standing.stream().filter(Refusal::drifted).map(Refusal::refusedAt), envDrifts.stream().map(e -> e.drift().at()))
                    .filter(Objects::nonNull).min(java.util.Comparator.naturalOrder()).orElse(null)));
        }
        return List.copyOf(out);
    }

    /** The fleet file's count, the scale that set the count, the retained slots and the running scale. */
    private ReplicaSetView.Scaling scaling(ReplicaSetSpec spec) {
        Optional<ScaledCount> scaled = scales.scaled(spec.getName()).filter(s -> s.replicas() == spec.getReplicas());
        List<ReplicaSetView.RetainedSlotView> retained = scales.retained(spec.getName()).stream()
                .map(r -> new ReplicaSetView.RetainedSlotView(r.ordinal(), r.slot(), r.cvmId(), r.instanceId(), r.retainedBy(), r.retainedAt()))
                .toList();
        ReplicaSetView.RunningScale scale = rollouts.runningOf(ScaleVariables.PROCESS_KEY, spec.getName())
                .map(id -> new ReplicaSetView.RunningScale(id, rollouts.variable(id, ScaleVariables.REQUESTED_REPLICAS), rollouts.stage(id)))
                .orElse(null);
        return new ReplicaSetView.Scaling(replicaSets.fileSpec(spec.getName()).getReplicas(),
                scaled.map(ScaledCount::scaledBy).orElse(null), scaled.map(ScaledCount::scaledAt).orElse(null),
                retained.isEmpty() ? null : retained, scale);
    }

    /** Running and healthy as last observed, and not held back by the Ready condition (min ready, attestation). */
    private static boolean ready(InstanceRecord record, List<InstanceCondition> conditions) {
        return record.ready() && conditions.stream().filter(c -> c.type() == ConditionType.Ready).allMatch(InstanceCondition::status);
    }

    /** Instances whose compose hash is the revision's; null when that hash is unknown and may not be looked up now. */
    private Integer updatedReplicas(Revision revision, List<InstanceRecord> records, boolean mayAskPhala) {
        String hash = revision.composeHash();
        if (hash == null && mayAskPhala) {
            try {
                // no instance running the revision means none is updated
                hash = composeHashes.composeHashOf(revision, records).orElse("");
            } catch (RuntimeException e) {
                log.debug("Could not learn the compose hash of revision {} of '{}': {}", revision.number(), revision.replicaSet(), e.getMessage());
            }
        }
        if (hash == null) {
            return null;
        }
        String target = hash;
        return (int) records.stream().filter(r -> Objects.equals(r.composeHash(), target)).count();
    }
}
