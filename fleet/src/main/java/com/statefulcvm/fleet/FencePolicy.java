package com.statefulcvm.fleet;

/**
 * What keeps a CVM whose attestation failed out of the workload (the fleet file's {@code attestation.on-failure}).
 * Either way the slot stays fenced, and is neither probed, counted nor healed, until an operator readmits it.
 */
public enum FencePolicy {
    /** Stop the CVM (disk and instance_id kept): it cannot serve anything (the default). */
    STOP,
    /** Drain it through the workload's drain hook (drain-&lt;workloadType&gt;) and leave it drained, still running. */
    DRAIN
}
