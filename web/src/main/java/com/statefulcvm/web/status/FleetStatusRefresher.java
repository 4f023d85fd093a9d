package com.statefulcvm.web.status;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Keeps the registry's status and health, and the Running, Healthy and Ready conditions, current between procedures,
 * for the API and the fleet page.
 */
@Component
@ConditionalOnProperty(prefix = "orchestrator.observe", name = "enabled", havingValue = "true", matchIfMissing = true)
class FleetStatusRefresher {

    private static final Logger log = LoggerFactory.getLogger(FleetStatusRefresher.class);

    private final ReplicaSets replicaSets;
    private final ReplicaSetObserver observer;
    private final ObservedConditions conditions;
    private final FleetReads reads;

    FleetStatusRefresher(ReplicaSets replicaSets, ReplicaSetObserver observer, ObservedConditions conditions, FleetReads reads) {
        this.replicaSets = replicaSets;
        this.observer = observer;
        this.conditions = conditions;
        this.reads = reads;
    }

    @Scheduled(initialDelayString = "${orchestrator.observe.interval:PT15S}", fixedDelayString = "${orchestrator.observe.interval:PT15S}")
    void refresh() {
        for (ReplicaSetSpec spec : replicaSets.all()) {
            try {
                conditions.track(spec, observer.refreshAndProbe(spec));
                reads.refreshed(spec.getName());
            } catch (PhalaApiException | IllegalStateException e) {
                log.warn("Could not observe replica set '{}': {}", spec.getName(), e.getMessage());
            }
        }
    }
}
