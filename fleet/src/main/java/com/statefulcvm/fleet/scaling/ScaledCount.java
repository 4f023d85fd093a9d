package com.statefulcvm.fleet.scaling;

import java.time.Instant;

/**
 * A replica count a scale recorded, with the fleet file's count it was made against: while the file still says
 * {@code fileReplicas}, {@code replicas} is the set's desired count ({@link DesiredReplicas}).
 */
public record ScaledCount(String replicaSet, int replicas, int fileReplicas, String scaledBy, Instant scaledAt) {
}
