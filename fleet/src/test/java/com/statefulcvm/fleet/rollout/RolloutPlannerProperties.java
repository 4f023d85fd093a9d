package com.statefulcvm.fleet.rollout;

import com.statefulcvm.fleet.UpdateType;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.UpdateAction;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.RolloutOrder;
import com.statefulcvm.fleet.InstanceRole;
import com.statefulcvm.fleet.FleetValidator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** What every plan must guarantee, over random sets and random valid policies. */
class RolloutPlannerProperties {

    private static final String OLD = "services:\n  web:\n    image: nginx:1.26\n";
    private static final String NEW = "services:\n  web:\n    image: nginx:1.27\n";
    private final RolloutPlanner planner = new RolloutPlanner();

    record SlotState(boolean hasCvm, boolean available, boolean onTarget, boolean error, InstanceRole role) {
    }

    record Scenario(int replicas, List<InstanceSnapshot> instances, UpdatePolicy policy, Set<Integer> targets) {
        PlanRequest request() {
            return new PlanRequest("x", replicas, policy, instances, NEW, targets, false, false);
        }

        InstanceSnapshot at(int ordinal) {
            return instances.stream().filter(i -> i.ordinal() == ordinal).findFirst().orElse(null);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("replicas=" + replicas + " targets=" + targets + " policy={type=" + policy.getType()
                    + " minimal=" + policy.getMinimalAction() + " most=" + policy.getMostDisruptiveAllowedAction() + " maxUnavailable="
                    + policy.getMaxUnavailable() + " maxSurge=" + policy.getMaxSurge() + " partition=" + policy.getPartition()
                    + " order=" + policy.getOrder() + "}");
            instances.forEach(i -> text.append("\n  ").append(i.ordinal()).append(i.available() ? " up" : " down")
                    .append(NEW.equals(i.dockerCompose()) ? " new " : " old ").append(i.status()).append(' ').append(i.role()));
            return text.toString();
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        return Arbitraries.integers().between(1, 20).flatMap(n -> Combinators.combine(
                slotStates().list().ofSize(n), Arbitraries.integers().between(-1, n - 1), policies(n), targets(n))
                .as((states, leader, policy, targets) -> {
                    List<InstanceSnapshot> instances = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        SlotState s = states.get(i);
                        if (s.hasCvm()) {
                            instances.add(new InstanceSnapshot(i, Slots.name("x", i), "cvm_" + i, s.error() ? "error" : "running",
                                    s.onTarget() ? NEW : OLD, "hash" + i, s.available(), i == leader ? InstanceRole.LEADER : s.role()));
                        }
                    }
                    return new Scenario(n, instances, policy, targets);
                }));
    }

    private Arbitrary<SlotState> slotStates() {
        return Combinators.combine(Arbitraries.frequency(Tuple.of(9, true), Tuple.of(1, false)),
                Arbitraries.frequency(Tuple.of(4, true), Tuple.of(1, false)), Arbitraries.of(true, false),
                Arbitraries.frequency(Tuple.of(1, true), Tuple.of(9, false)), Arbitraries.of(InstanceRole.REPLICA, InstanceRole.UNKNOWN))
                .as(SlotState::new);
    }

    private Arbitrary<UpdatePolicy> policies(int n) {
        Arbitrary<String> maxUnavailable = Arbitraries.oneOf(Arbitraries.integers().between(0, n + 1).map(String::valueOf),
                Arbitraries.integers().between(0, 100).map(p -> p + "%"));
        Arbitrary<String> maxSurge = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just("0")),
                Tuple.of(2, Arbitraries.integers().between(0, n).map(String::valueOf)),
                Tuple.of(1, Arbitraries.integers().between(0, 100).map(p -> p + "%")));
        Arbitrary<Integer> partition = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(0, n)));
        Arbitrary<UpdateType> type = Arbitraries.frequency(Tuple.of(4, UpdateType.PROACTIVE), Tuple.of(1, UpdateType.OPPORTUNISTIC));
        return Combinators.combine(maxUnavailable, maxSurge, partition, Arbitraries.of(RolloutOrder.class), type,
                        Arbitraries.of(UpdateAction.class), Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 60))
                .as((unavailable, surge, part, order, t, minimal, extra, minReady) -> {
                    UpdatePolicy policy = new UpdatePolicy();
                    policy.setMaxUnavailable(unavailable);
                    policy.setMaxSurge(surge);
                    policy.setPartition(part);
                    policy.setOrder(order);
                    policy.setType(t);
                    policy.setMinimalAction(minimal);
                    policy.setMostDisruptiveAllowedAction(UpdateAction.values()[Math.min(3, minimal.ordinal() + extra)]);
                    policy.setMinReadySeconds(minReady);
                    return policy;
                })
                .filter(policy -> FleetValidator.updatePolicyProblems(policy, n).isEmpty());
    }

    private Arbitrary<Set<Integer>> targets(int n) {
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(Set.<Integer>of())),
                Tuple.of(1, Arbitraries.integers().between(0, n - 1).set().ofMinSize(1).ofMaxSize(n)));
    }

    /** The wave (1-based) of each slot of the plan. */
    private static Map<String, Integer> waveOf(RolloutPlan plan) {
        Map<String, Integer> waves = new HashMap<>();
        for (int w = 0; w < plan.waves().size(); w++) {
            for (String slot : plan.waves().get(w)) {
                waves.put(slot, w + 1);
            }
        }
        return waves;
    }

    private static boolean inScope(Scenario s, int ordinal) {
        if (!s.targets().isEmpty()) {
            return s.targets().contains(ordinal);
        }
        return ordinal >= s.policy().getPartition() && s.policy().getType() == UpdateType.PROACTIVE;
    }

    private static boolean needsAction(Scenario s, int ordinal) {
        InstanceSnapshot i = s.at(ordinal);
        return i != null && inScope(s, ordinal) && (!NEW.equals(i.dockerCompose()) || s.policy().getMinimalAction() != UpdateAction.NONE);
    }

    @Property(tries = 1000)
    void aWaveNeverTakesAvailabilityBelowReplicasMinusMaxUnavailable(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        int n = s.replicas();
        int u = plan.maxUnavailable();
        int surge = plan.maxSurge();
        Map<String, Integer> waves = waveOf(plan);
        long downOutside = IntStream.range(0, n).filter(o -> {
            InstanceSnapshot i = s.at(o);
            return (i == null || !i.available()) && !waves.containsKey(Slots.name("x", o));
        }).count();
        boolean availableWork = plan.slotsToUpdate().stream().anyMatch(slot -> s.at(Slots.ordinalOf("x", slot).getAsInt()).available());
        boolean budgetExhausted = n - downOutside - 1 + surge < n - u;
        assertThat(availableWork && budgetExhausted).isEqualTo(plan.refusals().stream().anyMatch(r -> r.endsWith("no instance can be taken down")));
        for (List<String> wave : plan.waves()) {
            long takenDown = wave.stream().filter(slot -> s.at(Slots.ordinalOf("x", slot).getAsInt()).available()).count();
            assertThat(takenDown).isLessThanOrEqualTo(u + surge);
            if (!budgetExhausted) {
                assertThat(n - downOutside - takenDown + surge).as("available during %s", wave).isGreaterThanOrEqualTo(n - u);
            }
            // A wave of already-unavailable instances takes nothing available down with it.
            if (takenDown > 0) {
                assertThat(wave).allMatch(slot -> s.at(Slots.ordinalOf("x", slot).getAsInt()).available());
            }
        }
    }

    @Property(tries = 1000)
    void nothingOutsideTheScopeIsTouched(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        for (String slot : plan.slotsToUpdate()) {
            int ordinal = Slots.ordinalOf("x", slot).getAsInt();
            if (s.targets().isEmpty()) {
                assertThat(ordinal).isGreaterThanOrEqualTo(s.policy().getPartition());
                assertThat(s.policy().getType()).isEqualTo(UpdateType.PROACTIVE);
            } else {
                assertThat(s.targets()).contains(ordinal);
            }
        }
        assertThat(plan.steps()).filteredOn(step -> step.ordinal() < s.replicas()).extracting(PlannedStep::ordinal)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, s.replicas()).boxed().toList());
    }

    @Property(tries = 1000)
    void eachSlotIsInAtMostOneWave(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        assertThat(plan.slotsToUpdate()).doesNotHaveDuplicates();
        assertThat(plan.waves()).allSatisfy(wave -> assertThat(wave).isNotEmpty());
        IntStream.range(0, s.replicas()).forEach(o -> assertThat(plan.slotsToUpdate().contains(Slots.name("x", o)))
                .as("slot %d needs an action", o).isEqualTo(needsAction(s, o)));
    }

    @Property(tries = 1000)
    void anAvailableLeaderIsAloneInTheLastWave(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        if (s.policy().getOrder() != RolloutOrder.ROLE_AWARE) {
            return;
        }
        s.instances().stream()
                .filter(i -> i.role() == InstanceRole.LEADER && i.available() && needsAction(s, i.ordinal()))
                .forEach(leader -> assertThat(plan.waves().get(plan.waves().size() - 1)).containsExactly(leader.slot()));
    }

    @Property(tries = 1000)
    void everySurgeSlotIsRemovedAfterAllWaves(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        List<PlannedStep> steps = plan.steps();
        int lastWaveStep = IntStream.range(0, steps.size())
                .filter(i -> steps.get(i).wave() >= 1 && steps.get(i).action() != RolloutAction.REMOVE_SURGE).max().orElse(-1);
        List<String> added = steps.stream().filter(step -> step.action() == RolloutAction.ADD_SURGE).map(PlannedStep::slot).toList();
        assertThat(added).containsExactlyElementsOf(plan.surgeSlots()).hasSize(plan.maxSurge());
        for (String slot : added) {
            List<Integer> removals = IntStream.range(0, steps.size()).filter(i -> steps.get(i).action() == RolloutAction.REMOVE_SURGE
                    && steps.get(i).slot().equals(slot)).boxed().toList();
            assertThat(removals).singleElement().satisfies(i -> {
                assertThat(i).isGreaterThan(lastWaveStep);
                assertThat(steps.get(i).wave()).isEqualTo(plan.waves().size() + 1);
            });
            assertThat(Slots.ordinalOf("x", slot).getAsInt()).isGreaterThanOrEqualTo(s.replicas());
        }
        // Surge additions are the first rows, in round 0.
        assertThat(steps.subList(0, added.size())).allSatisfy(step -> {
            assertThat(step.action()).isEqualTo(RolloutAction.ADD_SURGE);
            assertThat(step.wave()).isZero();
        });
        if (plan.waves().isEmpty()) {
            assertThat(plan.surgeSlots()).isEmpty();
        }
    }

    @Property(tries = 1000)
    void anUnavailableInstanceThatNeedsAnActionIsInWaveOne(@ForAll("scenarios") Scenario s) {
        RolloutPlan plan = planner.plan(s.request());
        Map<String, Integer> waves = waveOf(plan);
        s.instances().stream().filter(i -> !i.available() && needsAction(s, i.ordinal()))
                .forEach(i -> assertThat(waves.get(i.slot())).as(i.slot()).isEqualTo(1));
    }
}
