package com.statefulcvm.fleet;

/** What a heal does when a restart cannot bring the instance back, or its CVM is gone: a new CVM starts empty. */
public enum DataLossPolicy {
    /** Replace it in the same slot: a new CVM, an empty disk, a new instance_id; the slot's epoch increases. */
    REPLACE,
    /** Hand over to the operator (a Tasklist task with the reason), who may still order the replacement (the default). */
    ESCALATE
}
