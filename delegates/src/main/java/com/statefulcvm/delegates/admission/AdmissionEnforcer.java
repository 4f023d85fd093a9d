package com.statefulcvm.delegates.admission;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.AdmissionCheck;
import com.statefulcvm.fleet.admission.BootMarker;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.FencePolicy;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Admission enforced outside our procedures, once per health-monitor round: a running instance counts (is probed, may
 * be healthy) only while the boot it runs is the attested one ({@link AdmissionCheck}). A fenced slot stays out until
 * an operator readmits it, and a stopped fenced CVM that someone started again is to be stopped again; an instance
 * restarted, updated or replaced behind our back since its last attestation (its boot marker, Phala's uptime, says
 * so), or never attested, is to be re-attested by admit-instance.bpmn, its old verdict forgotten meanwhile.
 * <p>
 * It only judges: the round's caller stops, forgets and starts, in the round's transaction, so that a round that finds
 * everything admitted writes nothing.
 */
public final class AdmissionEnforcer {

    private AdmissionEnforcer() {
    }

    /**
     * A slot kept out: fenced, or refused beyond the disruption budget and kept running; held as {@code why};
     * {@code stopAgain} is its CVM when it is fenced and runs again under on-failure STOP.
     */
    public record Fenced(int ordinal, String why, CvmInfo stopAgain) {
    }

    /**
     * A running instance without a valid attestation of its current boot: to be re-attested. {@code forgotten} is its
     * registry record with the old verdict dropped, or null when it had none.
     */
    public record Reattest(int ordinal, CvmInfo cvm, String reason, InstanceRecord forgotten) {
    }

    /** The round's admission verdicts, by ordinal; a slot in neither map is admitted (or not up, or held). */
    public record Verdicts(Map<Integer, Fenced> fenced, Map<Integer, Reattest> reattest) {

        /** Why the slot does not count this round, as the health judgement says it is held; null when it counts. */
        public String notAdmitted(int ordinal) {
            Fenced fence = fenced.get(ordinal);
            if (fence != null) {
                return fence.why();
            }
            Reattest again = reattest.get(ordinal);
            return again == null ? null : "not admitted (" + again.reason() + "): re-attestation started";
        }
    }

    /**
     * @param records  the registry rows of the slots no procedure holds (a held slot is the procedure's to attest)
     * @param refusals the slots refused beyond the disruption budget, kept running unadmitted: not attested again
     *                 for the boot that was refused (an approver decides), attested again once it boots anew
     * @param boots    when each running instance's current boot began (now minus Phala's uptime); a slot without one
     *                 is judged on its recorded verdict alone
     */
    public static Verdicts judge(ReplicaSetSpec spec, Map<Integer, CvmInfo> cvms, Map<Integer, InstanceRecord> records,
                                 Map<Integer, Fence> fences, Map<Integer, Refusal> refusals, Map<Integer, Instant> boots,
                                 Instant now) {
        Map<Integer, Fenced> fenced = new TreeMap<>();
        Map<Integer, Reattest> reattest = new TreeMap<>();
        for (Map.Entry<Integer, InstanceRecord> slot : records.entrySet()) {
            int ordinal = slot.getKey();
            InstanceRecord record = slot.getValue();
            CvmInfo cvm = cvms.get(ordinal);
            boolean up = cvm != null && cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null;
            Fence fence = fences.get(ordinal);
            if (fence != null) {
                fenced.put(ordinal, new Fenced(ordinal, fence.summary() + "; readmit it to bring it back",
                        up && fence.action() == FencePolicy.STOP ? cvm : null));
                continue;
            }
            if (!up) {
                continue;
            }
            Refusal refusal = refusals.get(ordinal);
            if (refusal != null && refusal.instanceId() != null && refusal.instanceId().equals(cvm.instanceId())
                    && !BootMarker.bootedSince(boots.get(ordinal), refusal.refusedAt())) {
                fenced.put(ordinal, new Fenced(ordinal, refusal.summary(), null));
                continue;
            }
            AdmissionCheck.Judgement judgement = AdmissionCheck.judge(spec.getAttestation().isRequired(), Optional.empty(),
                    record.attested(), record.attestedAt(), boots.get(ordinal));
            if (judgement.kind() == AdmissionCheck.Kind.NEEDS_ATTESTATION) {
                InstanceRecord forgotten = record.attested() == null ? null
                        : record.withoutAttestation("Awaiting attestation: " + judgement.reason(), now);
                reattest.put(ordinal, new Reattest(ordinal, cvm, judgement.reason(), forgotten));
            }
        }
        return new Verdicts(fenced, reattest);
    }
}
