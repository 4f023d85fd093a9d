package com.statefulcvm.web.api;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.Outage;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A set's conditions as one line each, for the dashboard: {@code AwaitingAdoption} (its app was made elsewhere and it
 * is only observed until an approver adopts it), {@code Ready} (every replica ready), {@code Fenced} (slots
 * kept out of the workload after a failed attestation, until an operator readmits them) and {@code Outage} (more slots
 * down than the set's disruption budget tolerates: no heal acts on one slot, a lights-out recovery brings the set back)
 * and {@code AttestationRefused} (slots refused whose fence the disruption budget did not allow: they keep running,
 * unadmitted, until an approver decides) and {@code Drifted} (slots running a compose or env changed behind our back).
 */
@Component
class SetConditions {

    private final FenceRegistry fences;
    private final RefusalRegistry refusals;
    private final OutageRegistry outages;
    private final Adoptions adoptions;
    private final EnvRegistry envs;

    SetConditions(FenceRegistry fences, RefusalRegistry refusals, OutageRegistry outages, Adoptions adoptions, EnvRegistry envs) {
        this.adoptions = adoptions;
        this.envs = envs;
        this.fences = fences;
        this.refusals = refusals;
        this.outages = outages;
    }

    List<Map<String, Object>> of(ReplicaSetSpec spec, List<InstanceRecord> records, ReplicaSetView view) {
        List<Fence> fenced = fences.fences(spec.getName());
        List<Refusal> refused = refusals.refusals(spec.getName());
        List<InstanceRecord> inSet = records.stream().filter(r -> r.ordinal() < spec.getReplicas()).toList();
        // the health monitor's outage when it declared one; else the disruption budget over what the registry last saw
        // (a slot that is fenced, not running or unhealthy is down)
        Set<Integer> fencedOrdinals = fenced.stream().map(Fence::ordinal).collect(Collectors.toSet());
        DisruptionBudget.Judgement judged = DisruptionBudget.of(spec).judge(inSet.stream()
                .map(r -> fencedOrdinals.contains(r.ordinal()) ? SlotAvailability.down(r.ordinal(), r.slot(), "fenced")
                        : !"running".equals(r.status()) ? SlotAvailability.down(r.ordinal(), r.slot(), "status " + r.status())
                        : Boolean.FALSE.equals(r.healthy()) ? SlotAvailability.down(r.ordinal(), r.slot(), "unhealthy")
                        : SlotAvailability.up(r.ordinal(), r.slot()))
                .toList());
        // a set whose every replica is ready is in no outage, whatever the monitor recorded before its next round
        boolean allReady = view.readyReplicas() >= view.replicas();
        Optional<Outage> declared = outages.outage(spec.getName()).filter(o -> !allReady);
        boolean outage = declared.isPresent() || (!allReady && !inSet.isEmpty() && judged.outage());
        boolean awaiting = adoptions.awaitsAdoption(spec);
        String drifted = driftedReason(spec, refused, envs.slots(spec.getName()).stream().filter(SlotEnv::drifted).toList());
        return List.of(
                condition("Ready", view.readyReplicas() >= view.replicas(),
                        view.readyReplicas() + " of " + view.replicas() + " replicas ready"),
                condition("Fenced", !fenced.isEmpty(), fenced.isEmpty() ? "no slot fenced"
                        : fenced.stream().map(f -> spec.getName() + "-" + f.ordinal() + ": " + f.summary()).collect(Collectors.joining("; "))),
                condition("Outage", outage, declared.map(Outage::condition).orElse(outage
                        ? judged.summary() + ": more than the set tolerates; start a lights-out recovery" : judged.summary())),
                condition("AttestationRefused", !refused.isEmpty(), refused.isEmpty() ? "no refusal beyond the budget"
                        : refusedReason(spec, refused)),
                condition("Drifted", drifted != null, Objects.requireNonNullElse(drifted,
                        "every admitted instance runs a recorded revision and its recorded env")),
                condition("AwaitingAdoption", awaiting, awaiting ? awaitingAdoptionReason(spec) : "managed by the orchestrator"));
    }

    /** Why a set is only observed: its app was made elsewhere and nobody has adopted it yet. */
    static String awaitingAdoptionReason(ReplicaSetSpec spec) {
        return "its app " + spec.getAppId() + " was made elsewhere: only observed, nothing is touched, until an approver"
                + " accepts its adoption in Tasklist (adopt-replica-set)";
    }

    /**
     * "db-1, db-2 run a compose changed behind our back ...: adopt it as a revision or roll back"; null without drift.
     * Drift is what attestation proved: an instance refused for a compose none of our revisions has, whose measured
     * compose hash is the app compose it publishes.
     */
    static String driftedReason(ReplicaSetSpec spec, List<Refusal> refused, List<SlotEnv> envDrifts) {
        List<String> slots = refused.stream().filter(Refusal::drifted).map(r -> spec.slotName(r.ordinal())).toList();
        String compose = slots.isEmpty() ? null : String.join(", ", slots) + (slots.size() == 1 ? " runs" : " run")
                + " a compose changed behind our back (none of the set's revisions; the diff is on each instance): adopt it"
                + " as a revision in Tasklist, or roll the recorded revision out again (POST .../rollbacks)";
        List<String> envSlots = envDrifts.stream().map(e -> spec.slotName(e.ordinal())).toList();
        String env = envSlots.isEmpty() ? null : String.join(", ", envSlots) + (envSlots.size() == 1 ? " runs" : " run")
                + " env values changed behind our back (who and when is on each instance): adopt them, or roll the recorded"
                + " env out again, in Tasklist (decide-env-drift)";
        return compose == null ? env : env == null ? compose : compose + "; " + env;
    }

    /** "update_env by alice at ... (revision r9): runs env 1a2b… (A, B); recorded env 3c4d… (A, B), first seen: ..."; null without. */
    static String envDrift(SlotEnv slot) {
        return slot == null || !slot.drifted() ? null : "env changed behind our back, " + slot.drift().source() + ": runs "
                + slot.drift().describe() + "; recorded " + slot.known().describe() + " (" + slot.known().source() + ")";
    }

    /**
     * "db-1: QUOTE_INVALID: ...; db-2: ...: kept running unadmitted, fencing them would exceed the disruption budget;
     * decide in Tasklist (...)".
     */
    static String refusedReason(ReplicaSetSpec spec, List<Refusal> refused) {
        return refused.stream().map(r -> spec.slotName(r.ordinal()) + ": " + r.reason()).collect(Collectors.joining("; "))
                + ": kept running unadmitted, fencing " + (refused.size() == 1 ? "it" : "them") + " would exceed the disruption"
                + " budget; decide in Tasklist (fence anyway, pin the platform they showed, adopt a compose changed behind our back,"
                + " or wait)";
    }

    private static Map<String, Object> condition(String type, boolean status, String reason) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type);
        out.put("status", status);
        out.put("reason", reason);
        return out;
    }
}
