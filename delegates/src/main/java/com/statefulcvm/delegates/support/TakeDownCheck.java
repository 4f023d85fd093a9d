package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.fleet.budget.SlotAvailability;
import com.statefulcvm.fleet.budget.TakeDownLock;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The last look before a procedure takes a slot down by its own hand (a rollout's restart, compose or env update,
 * replacement): the set's CVMs as Phala shows them <b>now</b>, read through the node's own client (never a cached
 * view: a slot that crashed a second ago is exactly what this look is for), and its fences, judged by the set's one
 * {@link DisruptionBudget}. When the budget is spent the step is held ({@link StepHeld}): it does nothing, its job is
 * due again in {@link #HOLD} and keeps its retries, and the procedure's own deadline still runs. The look and the
 * take-down that follows it hold the set's {@link TakeDownLock} until the step's transaction ends, so that a fence and
 * a procedure's take-down judged at the same moment take turns.
 */
@Component
public class TakeDownCheck {

    /** How long a held step waits before it looks again. */
    public static final Duration HOLD = Duration.ofSeconds(5);

    private final PhalaCloudClient phala;
    private final ReplicaSets sets;
    private final FenceRegistry fences;
    private final TakeDownLock lock;
    private final Clock clock;

    public TakeDownCheck(PhalaCloudClient phala, ReplicaSets sets, FenceRegistry fences, TakeDownLock lock, Clock clock) {
        this.phala = phala;
        this.sets = sets;
        this.fences = fences;
        this.lock = lock;
        this.clock = clock;
    }

    /**
     * The budget's answer for taking {@code slot} down now, with the set's take-down lock held until the caller's
     * transaction ends: what the caller does about it is seen by the next take-down of the set.
     */
    public DisruptionBudget.TakeDown judgeHolding(ReplicaSetSpec spec, UpdatePolicy policy, String slot, String by) {
        lock.holdUntilTransactionEnds(spec.getName(), by);
        return judge(spec, policy, slot);
    }

    /** The budget's answer for taking {@code slot} down now, from the set's live state. */
    public DisruptionBudget.TakeDown judge(ReplicaSetSpec spec, UpdatePolicy policy, String slot) {
        List<CvmInfo> cvms = SetCvms.asSlots(spec, phala.listAppCvms(sets.appId(spec)));
        Set<Integer> fenced = fences.fences(spec.getName()).stream().map(Fence::ordinal).collect(Collectors.toSet());
        Map<Integer, CvmInfo> bySlot = new TreeMap<>();
        for (CvmInfo cvm : cvms) {
            OptionalInt ordinal = Slots.ordinalOf(spec.getName(), cvm.name());
            if (ordinal.isPresent() && !"deleting".equals(cvm.status())) {
                bySlot.putIfAbsent(ordinal.getAsInt(), cvm);
            }
        }
        // the desired slots, each counted even without a CVM, and any surge slot above them that has one
        Set<Integer> ordinals = new java.util.TreeSet<>(bySlot.keySet());
        for (int i = 0; i < spec.getReplicas(); i++) {
            ordinals.add(i);
        }
        List<SlotAvailability> others = new ArrayList<>();
        for (int ordinal : ordinals) {
            String name = spec.slotName(ordinal);
            if (name.equals(slot)) {
                continue;
            }
            CvmInfo cvm = bySlot.get(ordinal);
            others.add(fenced.contains(ordinal) ? SlotAvailability.down(ordinal, name, "fenced")
                    : cvm == null ? SlotAvailability.down(ordinal, name, "no CVM")
                    : !cvm.isRunning() || !cvm.isSettled() ? SlotAvailability.down(ordinal, name, "CVM status " + cvm.status()
                            + (cvm.isSettled() ? "" : ", operation in progress"))
                    : SlotAvailability.up(ordinal, name));
        }
        return DisruptionBudget.of(spec.getReplicas(), spec.workload().quorumRule(), policy).judgeTakeDown(slot, others);
    }

    /** @throws StepHeld when the budget does not allow taking {@code slot} down now */
    public void requireRoom(ReplicaSetSpec spec, UpdatePolicy policy, String slot) {
        DisruptionBudget.TakeDown verdict = judgeHolding(spec, policy, slot, "taking " + slot + " down");
        if (!verdict.allowed()) {
            Instant next = clock.instant().plus(HOLD);
            String why = "Disruption budget of '" + spec.getName() + "' spent: " + verdict.summary();
            throw new StepHeld("Holding: " + why + "; next look at " + next, next,
                    "holding before taking " + slot + " down: " + why);
        }
    }
}
