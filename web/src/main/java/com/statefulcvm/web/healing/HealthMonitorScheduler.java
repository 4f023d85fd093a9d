package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.procedure.AdmissionStarter;
import com.statefulcvm.delegates.procedure.OutageGuard;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.heal.HealthRound;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import com.statefulcvm.web.config.HealingProperties;
import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.status.ObservedConditions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs the health monitors outside the process engine: every replica set with auto-healing gets a round every
 * {@code healthCheck.intervalSeconds} ({@link HealthRound}, {@link com.statefulcvm.delegates.admission.AdmissionEnforcer}),
 * every other set an observation every {@code orchestrator.observe.interval} (the registry's status and health, the
 * Running, Healthy and Ready conditions), on the sets this node holds the lease of ({@link MonitorLeaseKeeper}).
 * <p>
 * A tick every {@code orchestrator.healing.tick} picks the rounds that are due (each one interval after the previous
 * one was due, never two of a set at once) and hands them to the {@link RoundRunner}: for all of them together it reads
 * the engine's running procedures and one status batch from Phala ({@link CvmSightings}), then runs each set's round on
 * a small Spring thread pool: a list of the set's CVMs only where the batch cannot vouch for them, the probes without a
 * waiting thread ({@link ProbeLimiter}), the judgement, and a transaction only when something changed
 * ({@link RoundEffects}). BPMN
 * starts only when something must happen: a heal ({@code heal.bpmn}) or a re-attestation ({@code admit-instance.bpmn}).
 * <p>
 * Rounds are counted in the meters {@code orchestrator.health.monitor.rounds}, {@code .lateness} (how long after its
 * due time each round began) and {@code .round.duration}; what the monitor says of a set is its row's stage
 * ({@code GET /api/replica-sets/{name}/health}).
 */
@Component
public class HealthMonitorScheduler implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(HealthMonitorScheduler.class);

    public static final String ROUNDS = "orchestrator.health.monitor.rounds";
    public static final String LATENESS = "orchestrator.health.monitor.lateness";
    public static final String DURATION = "orchestrator.health.monitor.round.duration";
    public static final String SETS = "orchestrator.health.monitor.sets";

    private final ReplicaSets replicaSets;
    private final RuntimeService runtime;
    private final HealingProperties settings;
    private final OrchestratorProperties.Observe observe;
    private final Clock clock;
    private final MonitorLeaseKeeper keeper;
    private final RoundRunner runner;
    private final ThreadPoolTaskExecutor rounds;
    private final ThreadPoolTaskScheduler ticker;
    private final Map<String, Watched> watched = new ConcurrentHashMap<>();
    private final Counter monitorRounds;
    private final Counter observeRounds;
    private final Timer lateness;
    private final Timer duration;
    private volatile ScheduledFuture<?> ticking;
    private long nextLeasePass = System.nanoTime();

    private final Adoptions adoptions;
    private final Set<String> adoptedSets = ConcurrentHashMap.newKeySet();

    public HealthMonitorScheduler(ReplicaSets replicaSets, InstanceRegistry registry, SlotHealthRegistry slotHealth,
                                  FenceRegistry fences, RefusalRegistry refusals, HealStarter heals, OutageGuard outages,
                                  AdmissionStarter admissions,
                                  RuntimeService runtime,
                                  MonitorLeases leases, PhalaCloudClient phala, InstanceHealth health,
                                  ObservedConditions conditions, HealingProperties settings, OrchestratorProperties properties,
                                  PlatformTransactionManager transactions, Clock clock, ObjectProvider<MeterRegistry> meters,
                                  PhalaEffects effects, Adoptions adoptions) {
        this.adoptions = adoptions;
        this.replicaSets = replicaSets;
        this.runtime = runtime;
        this.settings = settings;
        this.observe = properties.getObserve();
        this.clock = clock;
        this.keeper = new MonitorLeaseKeeper(leases, nodeId(settings), settings.getLease(),
                settings.getTick().multipliedBy(2).plusSeconds(1), System::nanoTime);
        this.rounds = new ThreadPoolTaskExecutor();
        rounds.setCorePoolSize(settings.getRoundThreads());
        rounds.setMaxPoolSize(settings.getRoundThreads());
        rounds.setThreadNamePrefix("health-round-");
        rounds.setDaemon(true);
        rounds.setAwaitTerminationSeconds(5);   // shutdown() waits for a running task that long
        rounds.initialize();
        this.ticker = new ThreadPoolTaskScheduler();
        ticker.setPoolSize(1);
        ticker.setThreadNamePrefix("health-tick-");
        ticker.setDaemon(true);
        ticker.initialize();
        this.runner = new RoundRunner(replicaSets, registry, slotHealth, fences, refusals, heals, admissions,
                new CvmSightings(phala, replicaSets, settings.getStatusBatchSize()),
                new ProbeLimiter(health, settings.getMaxConcurrentProbes(), rounds),
                new RoundEffects(leases, registry, slotHealth, conditions, heals, outages, admissions, effects, transactions, clock),
                settings.getFullListEvery(), rounds);
        MeterRegistry registryOfMeters = meters.getIfAvailable(SimpleMeterRegistry::new);
        // HELP texts: MetricHelp
        this.monitorRounds = Counter.builder(ROUNDS).tag("mode", "monitor").register(registryOfMeters);
        this.observeRounds = Counter.builder(ROUNDS).tag("mode", "observe").register(registryOfMeters);
        this.lateness = Timer.builder(LATENESS).serviceLevelObjectives(Duration.ofSeconds(1)).publishPercentiles(0.5, 0.95, 0.99)
                .register(registryOfMeters);
        this.duration = Timer.builder(DURATION).publishPercentiles(0.5, 0.95).register(registryOfMeters);
        registryOfMeters.gauge(SETS, watched, Map::size);
    }

    /** One set as this node watches it. */
    private static final class Watched {
        final String set;
        volatile Instant due;
        volatile boolean running;
        volatile long rounds;
        volatile Instant lastStart;
        final RoundRunner.Memory memory = new RoundRunner.Memory();

        Watched(String set, Instant due) {
            this.set = set;
            this.due = due;
        }
    }

    /** What this node knows of a set's monitor: its rounds here and when the next one is due. */
    public record LocalView(String node, long rounds, Instant lastRoundAt, Instant nextRoundAt) {
    }

    public Optional<LocalView> localView(String set) {
        Watched w = watched.get(set);
        return w == null ? Optional.empty() : Optional.of(new LocalView(keeper.node(), w.rounds, w.lastStart, w.due));
    }

    public String node() {
        return keeper.node();
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        retireEngineMonitors();
        if (wanted().isEmpty()) {
            log.info("No replica set to monitor or observe (orchestrator.healing.enabled={}, orchestrator.observe.enabled={})",
                    settings.isEnabled(), observe.isEnabled());
            return;
        }
        log.info("Health monitors run on node {} (lease {}, tick {})", keeper.node(), settings.getLease(), settings.getTick());
        ticking = ticker.scheduleAtFixedRate(this::tick, settings.getTick());
    }

    /** Earlier versions ran each monitor as a process instance (monitor-health.bpmn): such instances are ended. */
    private void retireEngineMonitors() {
        try {
            List<String> old = runtime.createProcessInstanceQuery().processDefinitionKey(HealVariables.MONITOR_PROCESS).list()
                    .stream().map(ProcessInstance::getId).toList();
            if (!old.isEmpty()) {
                runtime.deleteProcessInstances(old, "the health monitor now runs outside the engine", true, true);
                log.info("Ended {} health monitor process instance(s) of an earlier version", old.size());
            }
        } catch (RuntimeException e) {
            log.warn("Could not end the health monitor process instances of an earlier version: {}", e.getMessage());
        }
    }

    /** Every set that gets rounds here or on another node, in the fleet's order. */
    private List<String> wanted() {
        List<String> sets = new ArrayList<>();
        for (ReplicaSetSpec spec : replicaSets.all()) {
            if (modeOf(spec) != null) {
                sets.add(spec.getName());
            }
        }
        return sets;
    }

    private HealthRound.Mode modeOf(ReplicaSetSpec spec) {
        // a set whose app was made elsewhere is only observed until it is adopted: no admission, fence or heal
        if (settings.isEnabled() && spec.getAutoHealing().isEnabled() && adopted(spec)) {
            return HealthRound.Mode.MONITOR;
        }
        return observe.isEnabled() ? HealthRound.Mode.OBSERVE : null;
    }

    /** An adoption is never undone, so a set once seen adopted is not asked about again on this node. */
    private boolean adopted(ReplicaSetSpec spec) {
        if (adoptedSets.contains(spec.getName())) {
            return true;
        }
        if (adoptions.awaitsAdoption(spec)) {
            return false;
        }
        adoptedSets.add(spec.getName());
        return true;
    }

    private Duration intervalOf(ReplicaSetSpec spec, HealthRound.Mode mode) {
        return mode == HealthRound.Mode.MONITOR ? Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()) : observe.getInterval();
    }

    void tick() {
        try {
            long t = System.nanoTime();
            if (t - nextLeasePass >= 0) {
                nextLeasePass = t + settings.getLease().dividedBy(3).toNanos();
                passLeases();
            }
            if (!keeper.trusted()) {
                return;
            }
            Instant now = clock.instant();
            List<Watched> due = new ArrayList<>();
            for (Watched w : watched.values()) {
                if (!w.running && !w.due.isAfter(now)) {
                    w.running = true;
                    due.add(w);
                }
            }
            if (!due.isEmpty()) {
                rounds.execute(() -> startRounds(due));
            }
        } catch (RuntimeException e) {
            log.warn("Health monitor tick failed: {}", e.toString());
        }
    }

    private void passLeases() {
        List<String> sets = wanted();
        Set<String> held;
        try {
            held = keeper.keep(sets);
        } catch (RuntimeException e) {
            log.warn("Could not renew the health monitors' leases (node {}): {}", keeper.node(), e.toString());
            return;
        }
        watched.keySet().removeIf(set -> !held.contains(set));
        Instant now = clock.instant();
        for (String set : held) {
            watched.computeIfAbsent(set, s -> {
                ReplicaSetSpec spec = replicaSets.spec(s);
                // the first round somewhere within one interval: a node that takes 500 sets at once spreads them out
                long spread = intervalOf(spec, modeOf(spec)).toMillis();
                return new Watched(s, now.plusMillis(ThreadLocalRandom.current().nextLong(Math.max(1, spread))));
            });
        }
    }

    /** The reads every due round shares, then each set's round on the pool. */
    private void startRounds(List<Watched> due) {
        List<Watched> started = new ArrayList<>();
        try {
            Map<String, RoundRunner.Memory> memories = new LinkedHashMap<>();
            due.forEach(w -> memories.put(w.set, w.memory));
            RoundRunner.Shared shared = runner.read(memories);
            for (Watched w : due) {
                ReplicaSetSpec spec = shared.specs().get(w.set);
                if (spec == null) {
                    continue;
                }
                started.add(w);
                rounds.execute(() -> round(w, spec, shared));
            }
        } catch (RuntimeException e) {
            log.warn("Health monitor rounds of {} set(s) could not start: {}", due.size(), e.toString());
        } finally {
            for (Watched w : due) {
                if (!started.contains(w)) {
                    done(w, clock.instant(), null);
                }
            }
        }
    }

    private void round(Watched w, ReplicaSetSpec spec, RoundRunner.Shared shared) {
        Instant start = clock.instant();
        w.lastStart = start;
        lateness.record(Duration.between(w.due, start).isNegative() ? Duration.ZERO : Duration.between(w.due, start));
        HealthRound.Mode mode = modeOf(spec);
        if (mode == null || !keeper.trusted()) {
            done(w, start, mode);
            return;
        }
        runner.run(keeper.node(), spec, mode, w.memory, shared, start).whenComplete((ignored, failure) -> done(w, start, mode));
    }

    /**
     * Marks the set's round over and sets the next one's time; whatever fails here, the set is free for its next round.
     * The set's interval is read from its spec, and the spec reads the database (its desired replica count): a round
     * that ended because the database was restarting would otherwise stay "running" on this node for good, the node
     * keeping the set's lease and never looking at it again (chaos seed 4: a crashed CVM not healed until the node
     * died). Then the next round comes after the default interval.
     */
    private void done(Watched w, Instant start, HealthRound.Mode mode) {
        Instant now = clock.instant();
        Duration interval = Duration.ofSeconds(10);
        try {
            if (mode != null) {
                w.rounds++;
                (mode == HealthRound.Mode.MONITOR ? monitorRounds : observeRounds).increment();
                duration.record(Duration.between(start, now));
            }
            if (replicaSets.exists(w.set)) {
                ReplicaSetSpec spec = replicaSets.spec(w.set);
                interval = intervalOf(spec, mode != null ? mode : HealthRound.Mode.OBSERVE);
            }
        } catch (RuntimeException e) {
            log.warn("Health monitor of '{}': the next round's time could not be read, it comes in {} s: {}", w.set,
                    interval.toSeconds(), e.toString());
        } finally {
            Instant next = w.due.plus(interval);
            // behind by more than an interval (a stalled node): start afresh rather than run the missed rounds back to back
            w.due = next.isBefore(now.minus(interval)) ? now : next;
            w.running = false;
        }
    }

    @Override
    public void destroy() {
        ScheduledFuture<?> t = ticking;
        if (t != null) {
            t.cancel(false);
        }
        ticker.shutdown();
        rounds.shutdown();
        if (t != null) {
            try {
                keeper.leave();
            } catch (RuntimeException e) {
                log.warn("Could not leave the health monitors' leases: {}", e.toString());
            }
        }
    }

    private static String nodeId(HealingProperties settings) {
        if (settings.getNodeId() != null && !settings.getNodeId().isBlank()) {
            return settings.getNodeId().trim();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "node";
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
