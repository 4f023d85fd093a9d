package com.statefulcvm.web.api.heal;

import com.statefulcvm.web.api.RequestReason;
import com.statefulcvm.web.api.Ordinals;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.healing.SlotHealth;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.fleet.healing.SlotHealthRegistry;
import com.statefulcvm.web.healing.HealthMonitorScheduler;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Healing on request and what the health monitor knows: {@code POST .../instances/{ordinal}/heal} starts heal.bpmn for
 * one instance (as the monitor does, but not held to the set's repair budget); {@code GET .../health} shows each
 * slot's counters, epoch, last heal and the heal running on it. {@code POST .../instances/{ordinal}/readmit} brings a
 * fenced slot back: the same heal (a restart, which starts a stopped CVM), whose attestation must admit the instance
 * before it serves again; only then is the fence lifted. A fenced slot is not healed by any other request.
 */
@RestController
@RequestMapping(path = "/api/replica-sets", produces = "application/json")
class HealController {

    private static final int ATTEMPTS = 3;

    private final ReplicaSets replicaSets;
    private final HealStarter starter;
    private final MonitorLeases leases;
    private final HealthMonitorScheduler monitors;
    private final SlotHealthRegistry slotHealth;
    private final ApiAccess access;
    private final TransactionTemplate transaction;
    private final FenceRegistry fences;

    HealController(ReplicaSets replicaSets, HealStarter starter, MonitorLeases leases, HealthMonitorScheduler monitors,
                   SlotHealthRegistry slotHealth, ApiAccess access, PlatformTransactionManager transactions,
                   FenceRegistry fences) {
        this.fences = fences;
        this.replicaSets = replicaSets;
        this.starter = starter;
        this.leases = leases;
        this.monitors = monitors;
        this.slotHealth = slotHealth;
        this.access = access;
        this.transaction = new TransactionTemplate(transactions);
    }

    @PostMapping("/{name}/instances/{ordinal}/heal")
    ResponseEntity<Map<String, Object>> heal(@PathVariable String name, @PathVariable String ordinal,
                                             @RequestBody(required = false) JsonNode body) {
        ReplicaSetSpec spec = spec(name);
        access.requireStart(HealVariables.HEAL_PROCESS, "heal instances");
        int target = Ordinals.parse(spec, ordinal);
        String reason = RequestReason.of(body);
        requireNotFenced(spec, target);
        String user = access.callerId();
        return start(spec, target, "requested by " + user + (reason == null ? "" : ": " + reason), user,
                HealVariables.TRIGGER_OPERATOR, null);
    }

    /** A heal of a fenced slot whose attestation decides: admitted, the fence is lifted; refused, it stays fenced. */
    @PostMapping("/{name}/instances/{ordinal}/readmit")
    ResponseEntity<Map<String, Object>> readmit(@PathVariable String name, @PathVariable String ordinal,
                                                @RequestBody(required = false) JsonNode body) {
        ReplicaSetSpec spec = spec(name);
        access.requireStart(HealVariables.HEAL_PROCESS, "readmit instances");
        int target = Ordinals.parse(spec, ordinal);
        String reason = RequestReason.of(body);
        Fence fence = requireFenced(spec, target);
        String user = access.callerId();
        String why = "readmit requested by " + user + (reason == null ? "" : ": " + reason) + "; it was " + fence.summary();
        return start(spec, target, why, user, HealVariables.TRIGGER_READMIT, fence.summary());
    }

    private ResponseEntity<Map<String, Object>> start(ReplicaSetSpec spec, int target, String why, String user, String trigger,
                                                      String fenced) {
        HealStarter.Outcome outcome = startSerialized(spec, target, why, user, trigger);
        String slot = spec.slotName(target);
        requireStarted(outcome, slot);
        String pid = ((HealStarter.Started) outcome).processInstanceId();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("processInstanceId", pid);
        answer.put("replicaSet", spec.getName());
        answer.put("ordinal", target);
        answer.put("slot", slot);
        if (fenced != null) {
            answer.put("fenced", fenced);
        }
        return ResponseEntity.created(URI.create("/engine-rest/process-instance/" + pid)).body(answer);
    }

    /** 409 for a readmit of a slot that is not fenced: only a fenced slot is readmitted. */
    Fence requireFenced(ReplicaSetSpec spec, int target) {
        return fences.fence(spec.getName(), target).orElseThrow(() -> new ApiProblem(HttpStatus.CONFLICT,
                spec.slotName(target) + " is not fenced: nothing to readmit"));
    }

    /** 409 for a plain heal of a fenced slot: only a readmit, whose attestation decides, may bring it back. */
    void requireNotFenced(ReplicaSetSpec spec, int target) {
        Optional<Fence> fence = fences.fence(spec.getName(), target);
        if (fence.isPresent()) {
            throw new ApiProblem(HttpStatus.CONFLICT, spec.slotName(target) + " is " + fence.get().summary()
                    + "; readmit it (POST /api/replica-sets/" + spec.getName() + "/instances/" + target + "/readmit)",
                    Map.of("fencedBy", String.valueOf(fence.get().fencedBy())));
        }
    }

    /** 409 for a heal that was not started: the instance is being healed already, or a rollout works on it. */
    static void requireStarted(HealStarter.Outcome outcome, String slot) {
        if (outcome instanceof HealStarter.AlreadyHealing running) {
            throw new ApiProblem(HttpStatus.CONFLICT, "a heal of " + slot + " is already running",
                    Map.of("processInstanceId", running.processInstanceId()));
        }
        if (outcome instanceof HealStarter.HeldByRollout rollout) {
            throw new ApiProblem(HttpStatus.CONFLICT, "rollout " + rollout.processInstanceId() + " is working on " + slot
                    + "; heal it once the rollout has moved on", Map.of("rolloutProcessInstanceId", rollout.processInstanceId()));
        }
        if (outcome instanceof HealStarter.InOutage outage) {
            throw new ApiProblem(HttpStatus.CONFLICT, outage.refusal());
        }
    }

    /**
     * The checks and the start in one transaction, under the set's heal-start lock: a concurrent start for the same set
     * (the monitor, maybe on another node) waits for this one or is seen by it. A conflict the engine still reports is
     * tried again.
     */
    private HealStarter.Outcome startSerialized(ReplicaSetSpec spec, int ordinal, String why, String user, String trigger) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.execute(status -> starter.start(spec, ordinal, why, trigger, user,
                        starter.snapshot(spec.getName()), false));
            } catch (OptimisticLockingException | ConcurrencyFailureException conflict) {
                if (attempt >= ATTEMPTS) {
                    throw new ApiProblem(HttpStatus.CONFLICT, "another heal of replica set '" + spec.getName()
                            + "' was being started at the same moment; try again");
                }
            }
        }
    }

    @GetMapping("/{name}/health")
    Map<String, Object> health(@PathVariable String name) {
        ReplicaSetSpec spec = spec(name);
        HealStarter.Snapshot engine = starter.snapshot(name);
        Map<Integer, SlotHealth> known = new HashMap<>();
        slotHealth.all(name).forEach(h -> known.put(h.ordinal(), h));
        List<Map<String, Object>> instances = new ArrayList<>();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            SlotHealth h = known.getOrDefault(ordinal, SlotHealth.first(name, ordinal));
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("ordinal", ordinal);
            view.put("slot", spec.slotName(ordinal));
            view.put("epoch", h.epoch());
            view.put("instanceId", h.instanceId());
            view.put("status", h.lastStatus());
            view.put("healthy", h.healthy());
            view.put("consecutiveFailures", h.consecutiveFailures());
            view.put("consecutiveSuccesses", h.consecutiveSuccesses());
            view.put("lastProbeAt", h.lastProbeAt());
            view.put("lastResult", h.lastResult());
            view.put("lastChangeAt", h.lastChangeAt());
            view.put("startedAt", h.startedAt());
            view.put("lastHeal", h.lastHeal());
            view.put("lastHealAt", h.lastHealAt());
            view.put("healProcessInstanceId", engine.healOf(name, ordinal));
            view.put("rolloutProcessInstanceId", engine.rolloutOf(spec.slotName(ordinal)));
            view.put("fenced", fences.fence(name, ordinal).map(Fence::summary).orElse(null));
            instances.add(view);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("replicaSet", name);
        out.put("autoHealing", Map.of("enabled", spec.getAutoHealing().isEnabled(),
                "initialDelaySeconds", spec.getAutoHealing().getInitialDelaySeconds(),
                "maxConcurrent", spec.getAutoHealing().getMaxConcurrent(),
                "approval", spec.getAutoHealing().getApproval().name(),
                "onDataLoss", spec.getAutoHealing().getOnDataLoss().name()));
        Optional<MonitorLeases.MonitorLease> lease = leases.lease(name);
        if (lease.isPresent() || monitors.localView(name).isPresent()) {
            // what the set's monitor said last (written when it changed) and which node runs it; rounds of this node
            Map<String, Object> monitor = new LinkedHashMap<>();
            monitor.put("node", lease.map(MonitorLeases.MonitorLease::owner).orElse(null));
            monitor.put("leaseUntil", lease.map(MonitorLeases.MonitorLease::leaseUntil).orElse(null));
            monitor.put("stage", lease.map(MonitorLeases.MonitorLease::stage).orElse(null));
            monitor.put("stageAt", lease.map(MonitorLeases.MonitorLease::stageAt).orElse(null));
            monitors.localView(name).ifPresent(local -> {
                monitor.put("round", local.rounds());
                monitor.put("lastRoundAt", local.lastRoundAt());
                monitor.put("nextRoundAt", local.nextRoundAt());
            });
            out.put("monitor", monitor);
        }
        out.put("runningHeals", engine.runningHeals());
        out.put("instances", instances);
        return out;
    }

    private ReplicaSetSpec spec(String name) {
        if (!replicaSets.exists(name)) {
            throw new ApiProblem(HttpStatus.NOT_FOUND, "unknown replica set '" + name + "'");
        }
        return replicaSets.spec(name);
    }
}
