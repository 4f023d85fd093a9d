package com.statefulcvm.web.rollout;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.web.config.HealingProperties;
import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.healing.HealthMonitorScheduler;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.EventSubscription;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Wakes a rollout's instance steps where they wait outside the job executor, so that a wait costs no engine job: a
 * step waiting for its CVM (message {@code CvmChanged}) once Phala reports that CVM settled or gone, and a step waiting
 * for its next health probe (message {@code ProbeDue}) once {@code nextProbeAt} has come (at that moment when it comes
 * before the next tick). Every
 * {@code orchestrator.rollout.cvm-poll-interval} one tick looks at every waiting step of the rollouts this node
 * watches, with one {@code POST /status/batch} for all their CVMs (per {@code status-batch-size}), not one poll job
 * and one Phala call per step.
 * <p>
 * On several nodes each node wakes the steps of its share of the rollouts (by process instance, over the nodes whose
 * heartbeat runs, {@code orchestrator.healing}'s table); a step woken twice finds its subscription gone the second
 * time, and a step nobody wakes (a node that died, Phala not answering) polls or probes on its own when its fallback
 * timer fires ({@code orchestrator.rollout.wake-fallback}).
 * <p>
 * Every due step is woken on its own, the steps of one wave side by side as those of different rollouts: each wake is
 * a transaction that runs the step's work up to its next wait (a status read, a probe, an attestation), and woken one
 * after the other the steps of a wave queued behind each other (issue 23: 50 rollouts at once, the two waits 7.7 s and
 * 6.6 s against about 1 s each). Side by side they touch only their own step's executions, variables and slot rows,
 * as the wave's non-exclusive apply jobs do; two steps that end together both count the wave's completed instances,
 * and the one whose commit loses that race is rolled back whole and woken again at once (its subscription is back),
 * at most {@link #ATTEMPTS} times before it is left to the next tick.
 */
@Component
public class RolloutStepWaker implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RolloutStepWaker.class);

    /** Wakes of one step within one tick when they conflict with a sibling's commit (the wave's completion count). */
    static final int ATTEMPTS = 3;

    private final RuntimeService runtime;
    private final PhalaCloudClient phala;
    private final InstanceRegistry registry;
    private final MonitorLeases leases;
    private final HealthMonitorScheduler monitors;
    private final Clock clock;
    private final Duration interval;
    private final Duration lease;
    private final int batchSize;
    private final ThreadPoolTaskScheduler ticker;
    private final ThreadPoolTaskExecutor wakers;
    /** The CVM each waiting step watches, looked up once per wait (by execution id). */
    private final Map<String, String> vmUuidOfWait = new ConcurrentHashMap<>();
    /** Waiting executions being woken now: not looked at again until done. */
    private final Set<String> waking = ConcurrentHashMap.newKeySet();
    /**
     * Steps whose continuation failed when woken (Phala refusing, a bug), until when they are left to their fallback
     * timer: that timer runs the step as an engine job, with the job's retries and, in the end, an incident in Cockpit,
     * as every failing step has.
     */
    private final Map<String, Instant> leftToTimer = new ConcurrentHashMap<>();
    private final Duration fallback;
    private volatile ScheduledFuture<?> ticking;
    private volatile List<String> nodes = List.of();
    private long nextHeartbeat = System.nanoTime();

    public RolloutStepWaker(RuntimeService runtime, PhalaCloudClient phala, InstanceRegistry registry, MonitorLeases leases,
                            HealthMonitorScheduler monitors, OrchestratorProperties properties, HealingProperties healing, Clock clock) {
        this.runtime = runtime;
        this.phala = phala;
        this.registry = registry;
        this.leases = leases;
        this.monitors = monitors;
        this.clock = clock;
        this.interval = properties.getRollout().getCvmPollInterval();
        this.lease = healing.getLease();
        this.batchSize = healing.getStatusBatchSize();
        this.fallback = properties.getRollout().getWakeFallback();
        this.ticker = new ThreadPoolTaskScheduler();
        ticker.setPoolSize(1);
        ticker.setThreadNamePrefix("step-waker-tick-");
        ticker.setDaemon(true);
        ticker.initialize();
        this.wakers = new ThreadPoolTaskExecutor();
        wakers.setCorePoolSize(properties.getRollout().getWakerThreads());
        wakers.setMaxPoolSize(properties.getRollout().getWakerThreads());
        wakers.setThreadNamePrefix("step-waker-");
        wakers.setDaemon(true);
        wakers.setAwaitTerminationSeconds(5);   // shutdown() waits for a running task that long
        wakers.initialize();
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        ticking = ticker.scheduleWithFixedDelay(this::tick, interval);
    }

    /** A step that waits, and what for. */
    record Wait(String executionId, String processInstanceId, String message) {
    }

    void tick() {
        try {
            heartbeat();
            List<Wait> waits = new ArrayList<>();
            for (String message : List.of(RolloutVariables.MESSAGE_CVM_CHANGED, RolloutVariables.MESSAGE_PROBE_DUE)) {
                for (EventSubscription s : runtime.createEventSubscriptionQuery().eventType("message").eventName(message).list()) {
                    if (mine(s.getProcessInstanceId()) && !waking.contains(s.getExecutionId())) {
                        waits.add(new Wait(s.getExecutionId(), s.getProcessInstanceId(), message));
                    }
                }
            }
            Set<String> waiting = ConcurrentHashMap.newKeySet();
            waits.forEach(w -> waiting.add(w.executionId()));
            vmUuidOfWait.keySet().retainAll(waiting);
            Instant now = clock.instant();
            leftToTimer.values().removeIf(until -> until.isBefore(now));
            waits.removeIf(w -> leftToTimer.containsKey(w.executionId()));
            if (waits.isEmpty()) {
                return;
            }
            wake(due(waits));
        } catch (RuntimeException e) {
            log.warn("Rollout step waker tick failed: {}", e.toString());
        }
    }

    /** The waits whose time has come: a probe due, a CVM that settled or is gone. */
    private List<Wait> due(List<Wait> waits) {
        Map<String, Object> nextProbe = new HashMap<>();
        Map<String, Object> slotOf = new HashMap<>();
        for (VariableInstance v : runtime.createVariableInstanceQuery()
                .executionIdIn(waits.stream().map(Wait::executionId).distinct().toArray(String[]::new))
                .variableNameIn(RolloutVariables.NEXT_PROBE_AT, RolloutVariables.AWAITED_SLOT).list()) {
            (RolloutVariables.NEXT_PROBE_AT.equals(v.getName()) ? nextProbe : slotOf).put(v.getExecutionId(), v.getValue());
        }
        Instant now = clock.instant();
        List<Wait> due = new ArrayList<>();
        List<Wait> cvmWaits = new ArrayList<>();
        for (Wait w : waits) {
            if (RolloutVariables.MESSAGE_PROBE_DUE.equals(w.message())) {
                if (nextProbe.get(w.executionId()) instanceof Date at) {
                    if (!at.toInstant().isAfter(now)) {
                        due.add(w);
                    } else if (at.toInstant().isBefore(now.plus(interval))) {
                        // due before the next tick: woken at its time, not up to a tick late
                        wakeAt(w, Duration.between(now, at.toInstant()));
                    }
                }
            } else {
                cvmWaits.add(w);
            }
        }
        Map<String, String> vmOf = new HashMap<>();
        for (Wait w : cvmWaits) {
            String vm = vmUuidOfWait.computeIfAbsent(w.executionId(), id -> vmUuidOf(slotOf.get(id)));
            vmOf.put(w.executionId(), vm);
        }
        Map<String, BatchStatus> statuses = statuses(vmOf.values().stream().filter(v -> !v.isEmpty()).distinct().toList());
        if (statuses == null) {
            return due; // Phala did not answer: the CVM waits are left to the next tick (or their fallback timers)
        }
        for (Wait w : cvmWaits) {
            String vm = vmOf.get(w.executionId());
            BatchStatus status = vm.isEmpty() ? null : statuses.get(vm);
            if (status == null || !Boolean.TRUE.equals(status.inProgress())) {
                due.add(w);
            }
        }
        return due;
    }

    /** The vm_uuid the registry knows for the slot, or "" (unknown: the step looks itself when woken). */
    private String vmUuidOf(Object slot) {
        if (!(slot instanceof String name) || name.lastIndexOf('-') < 0) {
            return "";
        }
        try {
            String set = name.substring(0, name.lastIndexOf('-'));
            int ordinal = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
            return registry.instance(set, ordinal).map(InstanceRecord::vmUuid).orElse("");
        } catch (NumberFormatException e) {
            return "";
        }
    }

    /** The batch's answer for the CVMs; null when a call failed. */
    private Map<String, BatchStatus> statuses(List<String> vmUuids) {
        Map<String, BatchStatus> answer = new HashMap<>();
        try {
            for (int from = 0; from < vmUuids.size(); from += batchSize) {
                answer.putAll(phala.statusBatch(vmUuids.subList(from, Math.min(vmUuids.size(), from + batchSize))));
            }
            return answer;
        } catch (PhalaApiException | IllegalStateException e) {
            log.debug("Rollout step waker could not read the CVMs' status: {}", e.getMessage());
            return null;
        }
    }

    /** One task per step: the steps of a wave side by side. */
    private void wake(List<Wait> due) {
        due.forEach(w -> {
            waking.add(w.executionId());
            submit(w);
        });
    }

    /** A probe due before the next tick: woken when it is due (until then the ticks leave it alone). */
    private void wakeAt(Wait w, Duration in) {
        waking.add(w.executionId());
        try {
            ticker.getScheduledExecutor().schedule(() -> submit(w), in.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            waking.remove(w.executionId());
            throw e;
        }
    }

    private void submit(Wait w) {
        try {
            wakers.execute(() -> {
                try {
                    wake(w);
                } finally {
                    waking.remove(w.executionId());
                }
            });
        } catch (RuntimeException e) {
            waking.remove(w.executionId());   // shutting down, or the pool refused: the next tick looks again
            log.debug("Could not wake {}: {}", w.executionId(), e.toString());
        }
    }

    private void wake(Wait w) {
        vmUuidOfWait.remove(w.executionId());
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                runtime.messageEventReceived(w.message(), w.executionId());
                return;
            } catch (OptimisticLockingException e) {
                // a sibling step's commit (the wave's completion count), a job of the rollout, another node: rolled
                // back whole, so the step still waits; woken again now, and after the last attempt by the next tick
                log.debug("Waking {} of {} conflicted (attempt {}): {}", w.executionId(), w.processInstanceId(), attempt, e.getMessage());
            } catch (RuntimeException e) {
                if (stillWaiting(w)) {
                    leftToTimer.put(w.executionId(), clock.instant().plus(fallback));
                    log.warn("Rollout {}: the step woken at {} failed; its fallback timer runs it as a job: {}",
                            w.processInstanceId(), w.message(), e.toString());
                }
                return;
            }
        }
    }

    /** False when the step moved on meanwhile (its fallback timer, another node, an abort): nothing failed then. */
    private boolean stillWaiting(Wait w) {
        try {
            return runtime.createEventSubscriptionQuery().executionId(w.executionId()).eventName(w.message()).count() > 0;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** This node wakes the rollouts that fall to it among the nodes alive. */
    private boolean mine(String processInstanceId) {
        List<String> alive = nodes;
        if (alive.size() <= 1) {
            return true;
        }
        int index = alive.indexOf(monitors.node());
        return index < 0 || Math.floorMod(processInstanceId.hashCode(), alive.size()) == index;
    }

    private void heartbeat() {
        long t = System.nanoTime();
        if (t - nextHeartbeat < 0) {
            return;
        }
        nextHeartbeat = t + lease.dividedBy(3).toNanos();
        try {
            Instant now = leases.now();
            nodes = leases.heartbeat(monitors.node(), now, now.plus(lease));
        } catch (RuntimeException e) {
            nodes = List.of();
            log.warn("Rollout step waker could not say it is alive: {}", e.toString());
        }
    }

    @Override
    public void destroy() {
        ScheduledFuture<?> t = ticking;
        if (t != null) {
            t.cancel(false);
        }
        ticker.shutdown();
        wakers.shutdown();
    }
}
