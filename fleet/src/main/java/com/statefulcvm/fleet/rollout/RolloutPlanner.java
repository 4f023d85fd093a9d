package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.UpdateType;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.UpdateAction;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.RolloutOrder;
import com.statefulcvm.fleet.InstanceRole;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.budget.DisruptionBudget;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Current state + policy → ordered actions with reasons, waves and blockers. It decides nothing about time; the
 * rollout process executes the plan (a planner separate from the executor, as in the StatefulSet controller).
 *
 * <ul>
 * <li><b>Scope.</b> Ordinals {@code 0..replicas-1}. Explicit {@code targetOrdinals} are exactly the scope (partition and
 * OPPORTUNISTIC do not apply: an operator asked for them). Otherwise ordinals below {@code partition} are left alone,
 * and under OPPORTUNISTIC every slot is deferred (it takes the target when a heal replaces it anyway).</li>
 * <li><b>Action.</b> A compose that differs needs RESTART (an in-place update keeps the disk); the same compose needs
 * nothing. The action is at least {@code minimalAction}. A CVM in status {@code error} cannot be updated in place, so
 * any action it gets becomes REPLACE. An action beyond {@code mostDisruptiveAllowedAction} is a refusal; its step
 * stays in the plan, with its wave, so the preview shows what the rollout would do.</li>
 * <li><b>Waves.</b> Instances in scope that are already unavailable and need an action form wave 1, all together: they
 * add no disruption, and a rollout must not stay stuck behind a broken instance. The available ones follow in the
 * policy's order, at most {@code U + S − D} per wave, where U is the resolved maxUnavailable, S the surge actually
 * used and D the instances already unavailable outside the rollout (no CVM, below partition, not targeted, or on the
 * target but unhealthy): those eat the budget, so availability never drops below {@code replicas − U}. When that
 * size is 0 or less the plan is refused (and previewed one instance per wave). Under ROLE_AWARE the leader comes
 * last, alone in its own wave, so the workload fails over once, to an already updated replica; with
 * {@code approveLeader} an operator approves that wave before it starts (the plan's leaderSteps).</li>
 * <li><b>Surge.</b> {@code S = min(maxSurge, available instances to update)} temporary slots with ordinals from
 * {@code replicas} on: added (wave 0) before the first wave, removed after the last.</li>
 * <li><b>Blockers</b> say what holds actions back ({@code "waiting: ..."}); <b>refusals</b> why the plan must not run.</li>
 * </ul>
 */
public class RolloutPlanner {

    static final String NO_CVM = "no CVM in this slot (healing or scaling creates it)";
    static final String ON_TARGET = "already runs the target compose";
    static final String DEFERRED = "deferred: OPPORTUNISTIC updates an instance when a heal replaces it, or when targeted";
    static final String NOT_TARGETED = "not targeted by this rollout";
    static final String UNAVAILABLE_FIRST = " (already unavailable: updated first)";
    static final String NO_LEADER = "no leader reported by the role probe: replicas ordered by descending ordinal";

    public RolloutPlan plan(PlanRequest request) {
        requireValid(request);
        UpdatePolicy policy = request.policy();
        Triage triage = triage(request, policy);
        Waves waves = waves(request, policy, triage);
        List<List<String>> waveSlots = waves.slots();
        return new RolloutPlan(request.replicaSet(), steps(request, waves, triage), waveSlots, waves.surgeSlots(request),
                blockers(request, policy, triage, waves, waveSlots), refusals(policy, triage, waves),
                waves.maxUnavailable(), waves.maxSurge(), policy.isApproveLeader() ? waves.leaders() : List.of());
    }

    /** A request that cannot be planned at all: an empty compose, a bad policy, a target outside the set. */
    private static void requireValid(PlanRequest request) {
        if (ComposeText.normalize(request.targetCompose()).isEmpty()) {
            throw new IllegalArgumentException("dockerCompose: the target compose is empty");
        }
        int replicas = request.replicas();
        List<String> policyProblems = FleetValidator.updatePolicyProblems(request.policy(), replicas);
        if (replicas < 0 || !policyProblems.isEmpty()) {
            throw new IllegalArgumentException(replicas < 0 ? "replicas: must not be negative (was " + replicas + ")"
                    : String.join("; ", policyProblems));
        }
        for (int ordinal : request.targetOrdinals()) {
            if (ordinal < 0 || ordinal >= replicas) {
                throw new IllegalArgumentException("targetOrdinals: " + ordinal + " is not a slot of " + request.replicaSet()
                        + " (ordinals 0.." + (replicas - 1) + ")");
            }
        }
    }

    /**
     * Every slot of the set sorted into the work of this rollout and the slots it leaves alone (with why), counting the
     * slots down outside the rollout: they eat the disruption budget.
     */
    private record Triage(List<Candidate> work, List<PlannedStep> idle, int downOutside, boolean leaderReported) {
    }

    private static Triage triage(PlanRequest request, UpdatePolicy policy) {
        Map<Integer, InstanceSnapshot> byOrdinal = new HashMap<>();
        request.instances().forEach(i -> byOrdinal.putIfAbsent(i.ordinal(), i));
        List<Candidate> work = new ArrayList<>();
        List<PlannedStep> idle = new ArrayList<>();
        int downOutside = 0;
        boolean leaderReported = false;
        for (int ordinal = 0; ordinal < request.replicas(); ordinal++) {
            String slot = Slots.name(request.replicaSet(), ordinal);
            InstanceSnapshot instance = byOrdinal.get(ordinal);
            if (instance == null || instance.cvmId() == null) {
                idle.add(new PlannedStep(ordinal, slot, RolloutAction.NONE, NO_CVM, -1));
                downOutside++;
                continue;
            }
            if (instance.fenced() != null) {
                // kept out until an operator readmits it: not updated, and down for the budget whatever its CVM shows
                idle.add(new PlannedStep(ordinal, slot, RolloutAction.NONE, instance.fenced() + "; not updated until readmitted", -1));
                downOutside++;
                continue;
            }
            if (instance.role() == InstanceRole.LEADER) {
                leaderReported = true;
            }
            Decision decision = decide(instance, request.targetCompose(), policy, request.envKeys());
            String outOfScope = outOfScope(request, policy, ordinal, decision);
            if (outOfScope != null || decision.action() == UpdateAction.NONE) {
                idle.add(new PlannedStep(ordinal, slot, RolloutAction.NONE, outOfScope != null ? outOfScope : decision.reason(), -1));
                if (!instance.available()) {
                    downOutside++;
                }
                continue;
            }
            work.add(new Candidate(ordinal, slot, instance, decision));
        }
        return new Triage(work, idle, downOutside, leaderReported);
    }

    /**
     * The work in waves: the already unavailable first, all together; the available ones in the policy's order, as many
     * at a time as the budget allows ({@code budget}: maxUnavailable capped by the set's disruption budget, plus the
     * surge, less what is down outside); under ROLE_AWARE each leader last and alone.
     */
    private record Waves(List<List<Candidate>> waves, List<Candidate> available, List<String> leaders, RolloutOrder order,
                         DisruptionBudget disruption, int maxUnavailable, int maxSurge, int budget) {

        List<List<String>> slots() {
            return waves.stream().map(wave -> wave.stream().map(Candidate::slot).toList()).toList();
        }

        /** The temporary slots, with ordinals from {@code replicas} on. */
        List<String> surgeSlots(PlanRequest request) {
            List<String> surge = new ArrayList<>();
            for (int i = 0; i < maxSurge; i++) {
                surge.add(Slots.name(request.replicaSet(), request.replicas() + i));
            }
            return surge;
        }
    }

    private static Waves waves(PlanRequest request, UpdatePolicy policy, Triage triage) {
        int replicas = request.replicas();
        RolloutOrder order = policy.getOrder();
        Comparator<Candidate> byOrder = Comparator.comparing(Candidate::ordinal, order.ordinals());
        List<Candidate> alreadyDown = triage.work().stream().filter(c -> !c.instance().available()).sorted(byOrder).toList();
        List<Candidate> available = triage.work().stream().filter(c -> c.instance().available()).sorted(byOrder).toList();
        List<Candidate> lastAlone = order == RolloutOrder.ROLE_AWARE
                ? available.stream().filter(c -> c.instance().role() == InstanceRole.LEADER).toList() : List.of();
        List<Candidate> first = available.stream().filter(c -> !lastAlone.contains(c)).toList();

        // the set's disruption budget: a raft store's rollout never takes its quorum down, whatever maxUnavailable says
        DisruptionBudget disruption = DisruptionBudget.of(replicas, request.quorum(), policy);
        int maxUnavailable = disruption.disruptionsAllowed();
        int maxSurge = Math.min(policy.resolvedMaxSurge(replicas), available.size());
        int budget = maxUnavailable + maxSurge - triage.downOutside();

        List<List<Candidate>> waves = new ArrayList<>();
        if (!alreadyDown.isEmpty()) {
            waves.add(alreadyDown);
        }
        int size = Math.max(1, budget);
        for (int from = 0; from < first.size(); from += size) {
            waves.add(first.subList(from, Math.min(first.size(), from + size)));
        }
        lastAlone.forEach(leader -> waves.add(List.of(leader)));
        return new Waves(waves, available, lastAlone.stream().map(Candidate::slot).toList(), order, disruption,
                maxUnavailable, maxSurge, budget);
    }

    /** Why the plan must not run: an action beyond what the policy allows, or no room to take any instance down. */
    private static List<String> refusals(UpdatePolicy policy, Triage triage, Waves waves) {
        List<String> refusals = new ArrayList<>();
        for (List<Candidate> wave : waves.waves()) {
            for (Candidate c : wave) {
                if (c.decision().action().exceeds(policy.getMostDisruptiveAllowedAction())) {
                    refusals.add(c.slot() + ": needs " + c.decision().action() + " (" + c.decision().reason()
                            + "), which exceeds mostDisruptiveAllowedAction " + policy.getMostDisruptiveAllowedAction());
                }
            }
        }
        int downOutside = triage.downOutside();
        if (!waves.available().isEmpty() && waves.budget() <= 0) {
            refusals.add(downOutside + (downOutside == 1 ? " instance is" : " instances are")
                    + " already unavailable outside this rollout's scope and maxUnavailable is " + waves.maxUnavailable()
                    + ": no instance can be taken down");
        }
        return refusals;
    }

    /** The plan's steps in order: surge added (wave 0), each wave's actions, surge removed, then the slots left alone. */
    private static List<PlannedStep> steps(PlanRequest request, Waves waves, Triage triage) {
        int replicas = request.replicas();
        int maxSurge = waves.maxSurge();
        List<String> surgeSlots = waves.surgeSlots(request);
        List<PlannedStep> steps = new ArrayList<>();
        for (int i = 0; i < maxSurge; i++) {
            steps.add(new PlannedStep(replicas + i, surgeSlots.get(i), RolloutAction.ADD_SURGE, "temporary extra instance (maxSurge "
                    + maxSurge + "): created on the target and admitted before any old instance goes down", 0));
        }
        for (int w = 0; w < waves.waves().size(); w++) {
            for (Candidate c : waves.waves().get(w)) {
                String reason = c.decision().reason() + (c.instance().available() ? "" : UNAVAILABLE_FIRST);
                steps.add(new PlannedStep(c.ordinal(), c.slot(), RolloutAction.of(c.decision().action()), reason, w + 1));
            }
        }
        for (int i = 0; i < maxSurge; i++) {
            steps.add(new PlannedStep(replicas + i, surgeSlots.get(i), RolloutAction.REMOVE_SURGE,
                    "temporary instance removed after the last wave", waves.waves().size() + 1));
        }
        steps.addAll(triage.idle());
        return steps;
    }

    /** What holds the actions back once the rollout runs: approvals, the budget between waves, min ready, the leader. */
    private static List<String> blockers(PlanRequest request, UpdatePolicy policy, Triage triage, Waves waves,
                                         List<List<String>> waveSlots) {
        int replicas = request.replicas();
        int maxUnavailable = waves.maxUnavailable();
        int maxSurge = waves.maxSurge();
        List<String> leaders = waves.leaders();
        List<String> blockers = new ArrayList<>();
        if (maxUnavailable < policy.resolvedMaxUnavailable(replicas)) {
            blockers.add("maxUnavailable " + policy.resolvedMaxUnavailable(replicas) + " capped at " + maxUnavailable
                    + " by the disruption budget (" + waves.disruption().describe() + ")");
        }
        if (waves.waves().isEmpty()) {
            return blockers;
        }
        if (request.approvalBeforeRollout()) {
            blockers.add("waiting: approval before the rollout");
        }
        for (int w = 1; w < waves.waves().size(); w++) {
            // What the previous wave holds down, with what was down before the rollout, against the budget.
            int held = waves.waves().get(w - 1).size() + triage.downOutside();
            blockers.add("wave " + (w + 1) + " (" + String.join(", ", waveSlots.get(w)) + "): waiting: " + held + " of "
                    + (maxUnavailable + maxSurge) + " unavailable allowed"
                    + (maxSurge > 0 ? " (maxUnavailable " + maxUnavailable + " + maxSurge " + maxSurge + ")" : ""));
        }
        if (policy.getMinReadySeconds() > 0) {
            blockers.add("waiting: min ready " + policy.getMinReadySeconds() + " s after each instance is healthy");
        }
        if (request.approvalBetweenWaves() && waves.waves().size() > 1) {
            blockers.add("waiting: approval between waves");
        }
        if (waves.order() == RolloutOrder.ROLE_AWARE && !triage.leaderReported()) {
            blockers.add(NO_LEADER);
        }
        if (policy.isApproveLeader()) {
            leaders.forEach(leader -> blockers.add("waiting: approval before the leader's step (" + leader + ")"));
        }
        if (leaders.size() > 1) {
            blockers.add(leaders.size() + " instances report LEADER (" + String.join(", ", leaders)
                    + "): each is updated alone, after the replicas");
        }
        return blockers;
    }

    /** Why a slot with a CVM is outside this rollout, or null when it is in scope. */
    private static String outOfScope(PlanRequest request, UpdatePolicy policy, int ordinal, Decision decision) {
        if (!request.targetOrdinals().isEmpty()) {
            return request.targetOrdinals().contains(ordinal) ? null : NOT_TARGETED;
        }
        if (ordinal < policy.getPartition()) {
            return "below partition " + policy.getPartition();
        }
        if (policy.getType() == UpdateType.OPPORTUNISTIC) {
            return decision.action() == UpdateAction.NONE ? decision.reason() : DEFERRED;
        }
        return null;
    }

    static Decision decide(InstanceSnapshot instance, String targetCompose, UpdatePolicy policy) {
        return decide(instance, targetCompose, policy, List.of());
    }

    /**
     * The action an instance needs under the policy, and why, in an operator's words. An env change is an in-place
     * update like a compose change (RESTART: Phala restarts the CVM with the new env, disk kept); its values cannot be
     * compared with what a CVM has, so every instance in scope gets it.
     */
    static Decision decide(InstanceSnapshot instance, String targetCompose, UpdatePolicy policy, List<String> envKeys) {
        boolean composeDiffers = !ComposeText.same(instance.dockerCompose(), targetCompose);
        boolean differs = composeDiffers || !envKeys.isEmpty();
        UpdateAction minimal = policy.getMinimalAction();
        UpdateAction required = differs ? UpdateAction.RESTART : UpdateAction.NONE;
        UpdateAction chosen = minimal.exceeds(required) ? minimal : required;
        String envText = envKeys.isEmpty() ? "" : envChange(envKeys);
        String differsText = composeDiffers
                ? "compose differs from the target (now " + shortHash(instance.composeHash()) + ", status " + instance.status() + ")"
                + (envKeys.isEmpty() ? "" : "; " + envText)
                : envText + ", compose unchanged";
        if (chosen == UpdateAction.NONE) {
            return new Decision(UpdateAction.NONE, ON_TARGET);
        }
        if ("error".equalsIgnoreCase(instance.status()) && chosen != UpdateAction.REPLACE) {
            // Neither a refresh nor an in-place update can reach a CVM in error: only a new CVM can.
            return new Decision(UpdateAction.REPLACE, "status error: cannot be updated in place, a new CVM replaces it; "
                    + (differs ? differsText : "minimalAction " + minimal + ", compose unchanged"));
        }
        if (!differs) {
            return new Decision(chosen, "minimalAction " + chosen + ": " + switch (chosen) {
                case REFRESH -> "re-observed and re-attested, no restart";
                case RESTART -> "rolling restart";
                default -> "a new CVM in the slot";
            } + ", compose unchanged");
        }
        return new Decision(chosen, chosen == required ? differsText
                : differsText + "; minimalAction " + chosen + ": a new CVM in the slot");
    }

    /** Names only: an env value must never reach a plan, a process variable or a log. */
    public static String envChange(List<String> envKeys) {
        return "env change (" + String.join(", ", envKeys) + "): the environment is replaced in full";
    }

    private static String shortHash(String hash) {
        return hash == null ? "unknown" : hash.substring(0, Math.min(12, hash.length()));
    }

    record Decision(UpdateAction action, String reason) {
    }

    private record Candidate(int ordinal, String slot, InstanceSnapshot instance, Decision decision) {
    }
}
