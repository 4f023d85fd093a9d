package com.statefulcvm.web.api;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A set's conditions as one line each, for the dashboard: {@code Ready} (every replica ready), {@code Fenced} (slots
 * kept out of the workload after a failed attestation, until an operator readmits them) and {@code Outage} (every
 * replica is down: no heal can help, a lights-out recovery brings the set back).
 */
@Component
class SetConditions {

    private final FenceRegistry fences;

    SetConditions(FenceRegistry fences) {
        this.fences = fences;
    }

    List<Map<String, Object>> of(ReplicaSetSpec spec, List<InstanceRecord> records, ReplicaSetView view) {
        List<Fence> fenced = fences.fences(spec.getName());
        List<InstanceRecord> inSet = records.stream().filter(r -> r.ordinal() < spec.getReplicas()).toList();
        long running = inSet.stream().filter(r -> "running".equals(r.status())).count();
        boolean outage = spec.getReplicas() > 0 && !inSet.isEmpty() && running == 0;
        return List.of(
                condition("Ready", view.readyReplicas() >= view.replicas(),
                        view.readyReplicas() + " of " + view.replicas() + " replicas ready"),
                condition("Fenced", !fenced.isEmpty(), fenced.isEmpty() ? "no slot fenced"
                        : fenced.stream().map(f -> spec.getName() + "-" + f.ordinal() + ": " + f.summary()).collect(Collectors.joining("; "))),
                condition("Outage", outage, outage ? "every replica is down: start a lights-out recovery"
                        : running + " of " + spec.getReplicas() + " replicas running"));
    }

    private static Map<String, Object> condition(String type, boolean status, String reason) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type);
        out.put("status", status);
        out.put("reason", reason);
        return out;
    }
}
