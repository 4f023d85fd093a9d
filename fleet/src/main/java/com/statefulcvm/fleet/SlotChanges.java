package com.statefulcvm.fleet;

import java.time.Instant;
import java.util.List;

/** Each slot's recent changes, recorded as its {@link InstanceRecord} is saved ({@link InstanceRegistry#save}). */
public interface SlotChanges {

    /**
     * The set's changes from {@code since} on, by ordinal and time, each slot's last change before {@code since} first
     * (what it was when the window opens).
     */
    List<SlotChange> since(String replicaSet, Instant since);
}
