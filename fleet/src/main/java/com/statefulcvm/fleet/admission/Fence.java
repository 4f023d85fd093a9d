package com.statefulcvm.fleet.admission;

import com.statefulcvm.fleet.FencePolicy;
import java.time.Instant;

/**
 * A slot kept out of the workload because its instance failed attestation: which instance, how (stopped or drained),
 * why (the attestation verdict), when and by which procedure. It stays until an operator readmits the slot and a new
 * attestation admits it.
 */
public record Fence(String replicaSet, int ordinal, String instanceId, FencePolicy action, String reason, Instant fencedAt,
                    String fencedBy) {

    /** What the API and the fleet page show: "fenced: attestation failed: &lt;cause&gt;". */
    public String summary() {
        return "fenced (" + (action == FencePolicy.STOP ? "stopped" : "drained") + "): attestation failed: " + reason;
    }

    /**
     * The slot's condition while the fence stands: "Fenced: attestation failed: &lt;cause&gt;". It outranks whatever was
     * observed since (the stop the fence itself caused reads "Status stopped"), so the operator sees why the slot is out.
     */
    public String condition() {
        return "Fenced: attestation failed: " + reason;
    }
}
