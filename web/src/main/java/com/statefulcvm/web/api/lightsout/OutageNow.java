package com.statefulcvm.web.api.lightsout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.budget.SlotAvailability;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether a set is in an outage now, for the lights-out guard: the health monitor's declared outage, else the disruption
 * budget over what Phala shows this moment (a slot whose CVM is not running, or that is fenced, is down). A set whose
 * CVMs cannot be read is not said to be healthy: the guard then stands aside, as the recovery is what an operator
 * reaches for when nothing answers.
 */
@Component
class OutageNow {

    private static final Logger log = LoggerFactory.getLogger(OutageNow.class);

    private final PhalaCloudClient phala;
    private final ReplicaSets replicaSets;
    private final FenceRegistry fences;
    private final OutageRegistry outages;

    OutageNow(PhalaCloudClient phala, ReplicaSets replicaSets, FenceRegistry fences, OutageRegistry outages) {
        this.phala = phala;
        this.replicaSets = replicaSets;
        this.fences = fences;
        this.outages = outages;
    }

    /** The budget's words for a set that is in no outage ("3 of 3 up; quorum ..."); empty when it is in one, or cannot be told. */
    Optional<String> notInOutage(ReplicaSetSpec spec) {
        if (outages.outage(spec.getName()).isPresent()) {
            return Optional.empty();
        }
        List<CvmInfo> cvms;
        try {
            cvms = SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec)));
        } catch (RuntimeException unreadable) {
            log.info("Lights-out guard of '{}': its CVMs cannot be read ({}); not said to be healthy", spec.getName(), unreadable.getMessage());
            return Optional.empty();
        }
        Map<Integer, CvmInfo> bySlot = new HashMap<>();
        cvms.forEach(c -> Slots.ordinalOf(spec.getName(), c.name()).ifPresent(o -> bySlot.put(o, c)));
        Set<Integer> fenced = fences.fences(spec.getName()).stream().map(Fence::ordinal).collect(Collectors.toSet());
        List<SlotAvailability> slots = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = bySlot.get(ordinal);
            String slot = spec.slotName(ordinal);
            slots.add(cvm == null ? SlotAvailability.down(ordinal, slot, "no CVM")
                    : fenced.contains(ordinal) ? SlotAvailability.down(ordinal, slot, "fenced")
                    : !CvmInfo.STATUS_RUNNING.equals(cvm.status()) ? SlotAvailability.down(ordinal, slot, "status " + cvm.status())
                    : SlotAvailability.up(ordinal, slot));
        }
        DisruptionBudget.Judgement judged = DisruptionBudget.of(spec).judge(slots);
        return judged.outage() ? Optional.empty() : Optional.of(judged.summary());
    }
}
