package com.statefulcvm.web.status;

import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.InstanceCondition;
import com.statefulcvm.fleet.InstanceConditions;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps the conditions that follow from an observation in step with it: {@code Running} (the CVM's status),
 * {@code Healthy} (the last probe) and {@code Ready} (healthy for the set's minReadySeconds, not refused by
 * attestation). {@code Programmed} belongs to the procedures, which are the only ones that change a CVM.
 */
@Component
public class ObservedConditions {

    private static final Logger log = LoggerFactory.getLogger(ObservedConditions.class);

    private final InstanceConditions conditions;
    private final Clock clock;

    public ObservedConditions(InstanceConditions conditions, Clock clock) {
        this.conditions = conditions;
        this.clock = clock;
    }

    /**
     * Never fails the caller: conditions are a view of the observation, which has already been recorded.
     *
     * @return true when a condition will change with time alone (an instance counting its min ready): the caller
     * tracks the set again at its next observation even if nothing else changed
     */
    public boolean track(ReplicaSetSpec spec, List<InstanceRecord> records) {
        try {
            Map<String, InstanceCondition> known = new HashMap<>();
            conditions.conditions(spec.getName()).forEach(c -> known.put(key(c.ordinal(), c.type()), c));
            boolean waiting = false;
            for (InstanceRecord record : records) {
                waiting |= track(spec, record, known);
            }
            return waiting;
        } catch (RuntimeException e) {
            log.warn("Could not update the conditions of replica set '{}': {}", spec.getName(), e.getMessage());
            return true;
        }
    }

    /** True while the instance counts its min ready. */
    private boolean track(ReplicaSetSpec spec, InstanceRecord record, Map<String, InstanceCondition> known) {
        if (record.status() == null) {
            return false; // never observed
        }
        int ordinal = record.ordinal();
        boolean running = "running".equals(record.status());
        set(spec, ordinal, ConditionType.Running, running, record.status(), known);

        Boolean healthy = record.healthy();
        Instant healthySince = null;
        if (healthy != null) {
            healthySince = set(spec, ordinal, ConditionType.Healthy, healthy, healthReason(record), known);
        }

        int minReady = spec.getUpdatePolicy().getMinReadySeconds();
        if (!running) {
            set(spec, ordinal, ConditionType.Ready, false, "not running: " + record.status(), known);
        } else if (healthy == null) {
            set(spec, ordinal, ConditionType.Ready, false, "health not yet probed", known);
        } else if (!healthy) {
            set(spec, ordinal, ConditionType.Ready, false, "not healthy", known);
        } else if (Boolean.FALSE.equals(record.attested())) {
            set(spec, ordinal, ConditionType.Ready, false, "not admitted: " + record.attestation(), known);
        } else if (record.attested() == null && spec.getAttestation().isRequired()) {
            // a boot not attested yet (a new one: the monitor forgot the last verdict and re-attests) serves nobody
            set(spec, ordinal, ConditionType.Ready, false, "awaiting attestation of this boot", known);
        } else {
            long healthyFor = Math.max(0, Duration.between(healthySince, clock.instant()).toSeconds());
            if (healthyFor >= minReady) {
                set(spec, ordinal, ConditionType.Ready, true, minReady == 0 ? "healthy"
                        : "healthy for at least " + minReady + " s (minReadySeconds)", known);
            } else {
                set(spec, ordinal, ConditionType.Ready, false,
                        "waiting: min ready, healthy for " + healthyFor + " s of " + minReady + " s", known);
                return true;
            }
        }
        return false;
    }

    /** Writes only what changed; answers the condition's lastTransitionTime as it is after the call. */
    private Instant set(ReplicaSetSpec spec, int ordinal, ConditionType type, boolean status, String reason,
                        Map<String, InstanceCondition> known) {
        InstanceCondition before = known.get(key(ordinal, type));
        if (before != null && before.status() == status && Objects.equals(before.reason(), reason)) {
            return before.lastTransitionTime();
        }
        conditions.set(spec.getName(), ordinal, type, status, reason);
        return before != null && before.status() == status ? before.lastTransitionTime() : clock.instant();
    }

    private static String key(int ordinal, ConditionType type) {
        return ordinal + "/" + type;
    }

    private static String healthReason(InstanceRecord record) {
        String condition = record.condition();
        if (condition != null && (condition.startsWith("Healthy") || condition.startsWith("Unhealthy"))) {
            return condition;
        }
        return Boolean.TRUE.equals(record.healthy()) ? "Healthy" : "not running: " + record.status();
    }
}
