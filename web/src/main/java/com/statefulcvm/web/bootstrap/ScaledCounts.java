package com.statefulcvm.web.bootstrap;

import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.scaling.DesiredReplicas;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import com.statefulcvm.fleet.scaling.ScaledCount;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * At start-up, says for every set whose count a scale recorded which count holds, by the rule of
 * {@link DesiredReplicas}: the scaled count while the fleet file's {@code replicas} is what it was when the scale was
 * recorded, the file's once it has changed. A stale scaled count is forgotten here, so that the rule's outcome is also
 * what the registry shows. Runs before the fleet bootstrap and the monitors (which read the desired count).
 */
@Component
class ScaledCounts implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(ScaledCounts.class);

    private final ValidatedFleet fleet;
    private final ScaleRegistry scales;

    ScaledCounts(ValidatedFleet fleet, ScaleRegistry scales) {
        this.fleet = fleet;
        this.scales = scales;
    }

    @Override
    public void afterPropertiesSet() {
        for (ReplicaSetSpec spec : fleet.fleet().getReplicaSets()) {
            Optional<ScaledCount> scaled = scales.scaled(spec.getName());
            if (scaled.isEmpty()) {
                continue;
            }
            ScaledCount count = scaled.get();
            if (DesiredReplicas.fileChanged(spec.getReplicas(), scaled)) {
                log.warn("Replica set '{}': the fleet file's replicas changed from {} to {} since the scale to {} (by {} at {}): "
                                + "the fleet file wins, the desired count is {}. No CVM is changed by this: a slot below that "
                                + "count without a CVM is the health monitor's to heal, and the CVMs above it are no longer part "
                                + "of the set until POST /api/replica-sets/{}/scale {{\"replicas\": {}}} drains and removes "
                                + "them (docs/scaling.md)",
                        spec.getName(), count.fileReplicas(), spec.getReplicas(), count.replicas(), count.scaledBy(),
                        count.scaledAt(), spec.getReplicas(), spec.getName(), spec.getReplicas());
                scales.forgetScaled(spec.getName());
            } else if (count.replicas() != spec.getReplicas()) {
                log.info("Replica set '{}': scaled to {} replicas by {} at {}; the fleet file says {}. The scaled count holds "
                                + "until the next scale or until the fleet file's replicas changes (docs/scaling.md)",
                        spec.getName(), count.replicas(), count.scaledBy(), count.scaledAt(), spec.getReplicas());
            }
        }
    }
}
