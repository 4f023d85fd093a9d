package com.statefulcvm.fleet.drift;

import java.util.List;
import java.util.Optional;

/** What the orchestrator knows of each slot's env; a slot without a row has not been looked at. */
public interface EnvRegistry {

    Optional<SlotEnv> slot(String replicaSet, int ordinal);

    List<SlotEnv> slots(String replicaSet);

    /** Records the slot's env as {@code slot} says, replacing what was recorded. */
    void save(SlotEnv slot);
}
