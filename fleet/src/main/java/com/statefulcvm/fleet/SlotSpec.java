package com.statefulcvm.fleet;

import java.util.Map;

/**
 * The effective configuration of one slot: the set's instance type and disk size unless the slot overrides them, its
 * labels, and the node it is placed on ({@code nodeId} null: Phala chooses). What a CVM of the slot is created with.
 */
public record SlotSpec(int ordinal, String slot, Map<String, String> labels, String instanceType, int diskSize, Integer nodeId,
                       boolean overridden) {

    public SlotSpec {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** Phala's {@code node_id} as the connector sends it; null lets Phala place the CVM. */
    public String nodeIdText() {
        return nodeId == null ? null : String.valueOf(nodeId);
    }
}
