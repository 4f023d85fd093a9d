package com.statefulcvm.fleet.budget;

/**
 * The set's take-down decisions take turns, on every node: a fence, and a procedure's own take-down, judge the
 * disruption budget and act on it while holding this lock, so that two of them judging at the same moment cannot both
 * see room for one more slot down.
 */
public interface TakeDownLock {

    /**
     * Holds the set's take-down lock until the caller's transaction ends.
     *
     * @return false when the caller runs in no transaction (nothing to hold it for)
     */
    boolean holdUntilTransactionEnds(String replicaSet, String by);
}
