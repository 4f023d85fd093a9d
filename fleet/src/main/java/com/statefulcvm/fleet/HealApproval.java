package com.statefulcvm.fleet;

/** Where a heal waits for an operator in Tasklist. */
public enum HealApproval {
    /** Never: restart and, where onDataLoss allows it, replace without asking. */
    NONE,
    /** Only before a replacement, which loses the instance's disk (the default). */
    BEFORE_REPLACE,
    /** Before the restart, and again before a replacement. */
    ALWAYS
}
