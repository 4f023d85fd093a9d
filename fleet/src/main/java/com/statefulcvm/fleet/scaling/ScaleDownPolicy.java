package com.statefulcvm.fleet.scaling;

/** What a scale-down does with a removed slot's CVM once the workload has let the member go. */
public enum ScaleDownPolicy {
    /** The CVM is stopped and kept with its disk and identity; a later scale-up of the same slot starts it again. */
    RETAIN,
    /** The CVM and its disk are deleted; a later scale-up of the slot creates a new CVM with a new identity. */
    DELETE
}
