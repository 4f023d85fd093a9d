package com.statefulcvm.fleet.scaling;

import java.util.Optional;

/**
 * The rule that decides a set's desired replica count, the one every reader uses (planner, health monitor, fleet page,
 * API): a count recorded by a scale holds while the fleet file still says what it said when the scale was recorded;
 * once the file's {@code replicas} changes, the file wins (as {@code kubectl apply} wins over an earlier
 * {@code kubectl scale} only when the applied value changes).
 */
public final class DesiredReplicas {

    private DesiredReplicas() {
    }

    public static int of(int fileReplicas, Optional<ScaledCount> scaled) {
        return scaled.filter(s -> s.fileReplicas() == fileReplicas).map(ScaledCount::replicas).orElse(fileReplicas);
    }

    /** True when a scaled count exists but the fleet file has changed since: the file wins and the count is stale. */
    public static boolean fileChanged(int fileReplicas, Optional<ScaledCount> scaled) {
        return scaled.isPresent() && scaled.get().fileReplicas() != fileReplicas;
    }
}
