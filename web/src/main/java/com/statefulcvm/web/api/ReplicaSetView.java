package com.statefulcvm.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.statefulcvm.fleet.InstanceCondition;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.SlotSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.Refusal;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the API shows of a replica set; {@code instances} only on the detail read. {@code updatedReplicas} counts the
 * instances on the update revision (absent when that cannot be told without asking Phala, on the list read);
 * {@code rollout} is the running rollout, if any. {@code disruptionBudget} says how many slots may be down at once
 * ({@code DisruptionBudget}); {@code conditions} are the set's own: {@code Outage} while more slots are down than that,
 * {@code AttestationRefused} while refused slots keep running unadmitted because fencing them would exceed it,
 * {@code Drifted} while some of them run a compose changed behind our back.
 * {@code attestationPolicy} says what admission pins: the platforms (MRTD, RTMR0-2) and the KMS key, or that any is
 * accepted (the built-in simulator only). {@code mixedRevisions}: each slot's revision, while they are not all one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ReplicaSetView(String name, String appId, String workloadType, int replicas, int readyReplicas, Integer updatedReplicas,
                      Integer currentRevision, Integer updateRevision, RunningRollout rollout,
                      List<InstanceView> instances, String observationError, Scaling scaling, String disruptionBudget,
                      List<ConditionView> conditions, String attestationPolicy, List<SlotRevision> mixedRevisions) {

    /**
     * A slot and the revision whose compose it runs (null: none we recorded, as after a change behind our back); the
     * set lists them while its slots run different revisions (after an abort, a failed wave, an adoption of a mixed app).
     */
    record SlotRevision(int ordinal, String slot, Integer revision) {
    }

    /**
     * How the set's count came about and what a scale left: {@code fileReplicas} is the fleet file's count, which
     * differs from {@code replicas} after a scale ({@code scaledBy}, {@code scaledAt}); {@code retainedSlots} are the
     * slots a scale-down stopped and kept (not part of the set: not rolled out, probed or healed); {@code scale} is the
     * running scale, if any.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Scaling(int fileReplicas, String scaledBy, Instant scaledAt, List<RetainedSlotView> retainedSlots, RunningScale scale) {
    }

    record RetainedSlotView(int ordinal, String name, String cvmId, String instanceId, String retainedBy, Instant retainedAt) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    record RunningScale(String processInstanceId, Object requestedReplicas, String stage) {
    }

    record InstanceView(int ordinal, String name, String cvmId, String vmUuid, String instanceId, String status,
                        String composeHash, Boolean healthy, String condition, Instant observedAt,
                        Boolean attested, String attestation, Instant attestedAt, List<ConditionView> conditions,
                        String fenced, Instant fencedAt, String fencedBy, String refused, Instant refusedAt, String drift,
                        String envDrift, SlotConfigView config, Integer revision) {

        /**
         * {@code fence}: the slot's fence, if it has one ("fenced (stopped): attestation failed: ..."). While it stands
         * the condition and the attestation verdict are the fence's: the failed verdict that fenced the slot, not the
         * latest observation (the stop the fence itself caused reads "Status stopped" and ends the boot the verdict
         * spoke for, so the registry forgets it). {@code refusal}: the slot was refused but not fenced, the disruption
         * budget allowing no more ("refused, kept running unadmitted (...): ..."). {@code drift}: the diff from the set's
         * current revision to the compose the refused instance runs, when it was changed behind our back. {@code envDrift}:
         * who changed the env its CVM runs behind our back, and the variable names it runs and we recorded (never a value).
         */
        static InstanceView of(InstanceRecord r, List<ConditionView> conditions, Optional<Fence> fence, Optional<Refusal> refusal,
                               String drift, String envDrift, SlotSpec slot, Integer revision) {
            boolean failedVerdictKept = Boolean.FALSE.equals(r.attested());
            return new InstanceView(r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.status(), r.composeHash(),
                    r.healthy(), fence.map(Fence::condition).orElse(r.condition()), r.observedAt(),
                    fence.isPresent() ? Boolean.FALSE : r.attested(), fence.map(Fence::reason).orElse(r.attestation()),
                    fence.map(f -> failedVerdictKept ? r.attestedAt() : f.fencedAt()).orElse(r.attestedAt()), conditions,
                    fence.map(Fence::summary).orElse(null), fence.map(Fence::fencedAt).orElse(null),
                    fence.map(Fence::fencedBy).orElse(null), refusal.map(Refusal::summary).orElse(null),
                    refusal.map(Refusal::refusedAt).orElse(null), drift, envDrift, SlotConfigView.of(slot), revision);
        }
    }

    /**
     * What a CVM of the slot is created with: the set's instance type and disk unless the slot overrides them, its
     * labels and node ({@code nodeId} null: Phala places it). {@code overridden}: the slot has an override of its own.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record SlotConfigView(String instanceType, int diskSize, Integer nodeId, Map<String, String> labels, boolean overridden) {

        static SlotConfigView of(SlotSpec slot) {
            return new SlotConfigView(slot.instanceType(), slot.diskSize(), slot.nodeId(), new TreeMap<>(slot.labels()), slot.overridden());
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ConditionView(String type, boolean status, String reason, Instant lastTransitionTime) {

        static ConditionView of(InstanceCondition c) {
            return new ConditionView(c.type().name(), c.status(), c.reason(), c.lastTransitionTime());
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    record RunningRollout(String processInstanceId, String stage, boolean paused) {
    }
}
