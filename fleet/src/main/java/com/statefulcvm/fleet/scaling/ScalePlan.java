package com.statefulcvm.fleet.scaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a scale to {@code requested} replicas does, decided from the set's desired count and the CVMs that exist: a
 * scale-up adds the slots from the current count up to the requested one, lowest ordinal first; a scale-down removes
 * every slot at or above the requested count that still has a CVM (retained ones excepted), highest ordinal first, so
 * that the ordinals of a set always stay 0..n-1. A scale-down below the workload's minimum needs an approval.
 */
public record ScalePlan(int current, int requested, Direction direction, List<Integer> toAdd, List<Integer> toRemove,
                        int minReplicas, boolean needsApproval) {

    public enum Direction { UP, DOWN, NONE }

    /**
     * @param current   the set's desired count now
     * @param withCvm   ordinals that have a CVM in the set's app and are not retained
     */
    public static ScalePlan of(int current, int requested, int minReplicas, Set<Integer> withCvm) {
        List<Integer> add = new ArrayList<>();
        List<Integer> remove = new ArrayList<>();
        if (requested > current) {
            for (int ordinal = current; ordinal < requested; ordinal++) {
                add.add(ordinal);
            }
        } else {
            TreeSet<Integer> above = new TreeSet<>();
            for (int ordinal = requested; ordinal < current; ordinal++) {
                above.add(ordinal);
            }
            withCvm.stream().filter(o -> o >= requested).forEach(above::add);
            remove.addAll(above.descendingSet());
        }
        Direction direction = !add.isEmpty() ? Direction.UP : !remove.isEmpty() ? Direction.DOWN : Direction.NONE;
        return new ScalePlan(current, requested, direction, List.copyOf(add), List.copyOf(remove), minReplicas,
                direction == Direction.DOWN && requested < minReplicas);
    }

    /**
     * What is wrong with a requested count, naming the field ({@code replicas: ...}), or empty when it may be planned.
     *
     * @param requested the request's value as it came (a JSON number, a string, null...)
     */
    public static Optional<String> refusal(Object requested, int maxReplicas) {
        if (requested == null) {
            return Optional.of("replicas: is required, a whole number from 1 to " + maxReplicas);
        }
        if (!(requested instanceof Integer) && !(requested instanceof Long)) {
            return Optional.of("replicas: must be a whole number from 1 to " + maxReplicas + " (was " + describe(requested) + ")");
        }
        long value = ((Number) requested).longValue();
        if (value < 1) {
            return Optional.of("replicas: must be at least 1 (was " + value + "); a replica set is never scaled to zero");
        }
        if (value > maxReplicas) {
            return Optional.of("replicas: must not exceed " + maxReplicas + " (scaling.maxReplicas) (was " + value + ")");
        }
        return Optional.empty();
    }

    private static String describe(Object value) {
        return value instanceof String s ? "'" + s + "'" : value + " of type " + value.getClass().getSimpleName();
    }

    /** In words, for the process's stage and the approval form. */
    public String summary(String set) {
        return switch (direction) {
            case UP -> "scale " + set + " up from " + current + " to " + requested + " replicas: add " + slots(set, toAdd);
            case DOWN -> "scale " + set + " down from " + current + " to " + requested + " replicas: remove " + slots(set, toRemove)
                    + (needsApproval ? "; below the workload's minimum of " + minReplicas + ", an operator must approve" : "");
            case NONE -> set + " has " + current + " replicas already and no CVM above them: nothing to change";
        };
    }

    private static String slots(String set, List<Integer> ordinals) {
        return String.join(", ", ordinals.stream().map(o -> set + "-" + o).toList());
    }
}
