package com.statefulcvm.fleet;

/**
 * The workload procedures ({@code <hook>-<type>.bpmn}) that do something for a type; one a type does not list is
 * skipped by the procedures that would call it (its jobs and call activities cost time per instance).
 */
public enum WorkloadHook {
    /** drain-&lt;type&gt;: before an instance is taken down. */
    DRAIN,
    /** rejoin-&lt;type&gt;: after it is back and healthy, until the workload counts it again. */
    REJOIN
}
