package com.statefulcvm.web.status;

import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.config.OrchestratorProperties;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A set's detail as the API and the fleet page read it: from Phala at most once per {@code orchestrator.fleet-reads.
 * max-age} per set and node, whoever asks and however many ask at once (one of them reads, the others wait for it);
 * in between, from the registry that read (and the health monitor's rounds) brought up to date. Every viewer of a
 * set's instances used to cost one Phala call every 5 s.
 */
@Component
public class FleetReads {

    /** The records and whether they were just read from Phala (then the caller tracks their conditions). */
    public record Read(List<InstanceRecord> records, boolean fresh) {
    }

    private final ReplicaSetObserver observer;
    private final InstanceRegistry registry;
    private final Clock clock;
    private final Duration maxAge;
    private final Map<String, Instant> lastRead = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    public FleetReads(ReplicaSetObserver observer, InstanceRegistry registry, Clock clock, OrchestratorProperties properties) {
        this.observer = observer;
        this.registry = registry;
        this.clock = clock;
        this.maxAge = properties.getFleetReads().getMaxAge();
    }

    /** Throws what the Phala read throws (the caller shows the registry's last records and says why). */
    public Read read(ReplicaSetSpec spec) {
        String set = spec.getName();
        synchronized (locks.computeIfAbsent(set, s -> new Object())) {
            if (recent(set)) {
                return new Read(registry.instances(set), false);
            }
            List<InstanceRecord> records = observer.refresh(spec);
            lastRead.put(set, clock.instant());
            return new Read(records, true);
        }
    }

    private boolean recent(String set) {
        Instant at = lastRead.get(set);
        return at != null && at.plus(maxAge).isAfter(clock.instant());
    }
}
