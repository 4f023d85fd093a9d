package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.HealthGate;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.UpdatePolicy;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import static com.statefulcvm.delegates.procedure.RolloutVariables.*;

/**
 * "Probe the instance's health": one probe, fed to the health gate whose state lives in the slot's variables. The gate's
 * min ready is the rollout's effective policy's ({@link SlotReader#policy}): a per-rollout override holds every instance
 * that long.
 */
@Component("probeHealth")
public class ProbeHealth implements JavaDelegate {

    private final SlotReader slots;
    private final InstanceHealth health;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final Clock clock;
    private final RolloutSettings settings;

    public ProbeHealth(SlotReader slots, InstanceHealth health, ReplicaSetObserver observer, SlotConditions conditions, Clock clock,
                       RolloutSettings settings) {
        this.slots = slots;
        this.health = health;
        this.observer = observer;
        this.conditions = conditions;
        this.clock = clock;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = slots.read(execution);
        ProbeResult probe = health.probe(step.spec(), step.cvm());
        InstanceRecord record = observer.observe(step.spec(), step.cvm());
        observer.recordProbe(record, probe);

        // min ready as the rollout's effective policy says (its override applied), not the fleet file's
        UpdatePolicy policy = slots.policy(execution, step.spec());
        int minReady = policy.getMinReadySeconds();
        HealthGate gate = HealthGate.of(step.spec(), policy);
        Instant now = clock.instant();
        HealthGate.State state = gate.observe(readState(execution), probe.healthy(), now);
        boolean passed = gate.passed(state, now);
        conditions.set(step.spec(), step.slot(), ConditionType.Healthy, probe.healthy(), probe.detail());
        // the rollout probes first and attests while min ready runs: not ready before attestation has admitted it
        boolean awaitingAttestation = Boolean.FALSE.equals(execution.getVariable(ATTESTED));
        boolean ready = passed && !awaitingAttestation;
        conditions.set(step.spec(), step.slot(), ConditionType.Ready, ready, ready
                ? "healthy for " + minReady + " s and admitted"
                : "waiting: " + state.healthyStreak() + " of " + step.spec().getHealthCheck().getHealthyThreshold()
                + " healthy probes, min ready " + minReady + " s"
                + (awaitingAttestation ? ", attestation" : ""));
        // Due one interval after this probe (or as soon as min ready can pass), fixed before anything else this job does
        // (the first time: attestation), so that the wait overlaps that work instead of following it. Local to the step:
        // the steps of a wave wait side by side, and the step waker reads each one's own.
        Instant next = gate.nextProbe(state, now, Duration.ofSeconds(step.spec().getHealthCheck().getIntervalSeconds()));
        execution.setVariableLocal(NEXT_PROBE_AT, Date.from(next));
        if (execution.hasVariable(CVM_WAIT_FALLBACK)) {
            execution.setVariableLocal(PROBE_FALLBACK_AT, Date.from(next.plus(settings.wakeFallback())));
        }
        execution.setVariable(HEALTHY_STREAK, state.healthyStreak());
        execution.setVariable(HEALTHY_SINCE, state.healthySince() == null ? null : state.healthySince().toString());
        execution.setVariable(HEALTH_GATE_PASSED, passed);
        execution.setVariable(STAGE, passed
                ? step.slot() + " is ready"
                : "waiting for health of " + step.slot() + ": " + state.healthyStreak() + " of "
                + step.spec().getHealthCheck().getHealthyThreshold() + " healthy probes in a row, min ready "
                + minReady + " s; last probe: " + probe.detail());
    }

    private static HealthGate.State readState(DelegateExecution execution) {
        Object streak = execution.getVariable(HEALTHY_STREAK);
        Object since = execution.getVariable(HEALTHY_SINCE);
        return new HealthGate.State(streak instanceof Number n ? n.intValue() : 0,
                since instanceof String s && !s.isBlank() ? Instant.parse(s) : null);
    }
}
