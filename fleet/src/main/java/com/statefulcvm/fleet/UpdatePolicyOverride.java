package com.statefulcvm.fleet;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A per-rollout {@code "updatePolicy": {...}}: any field of the file's policy, applied to a copy of the set's policy
 * and validated like the file. Enum values are accepted in any case and in the file's spelling ({@code role-aware},
 * {@code ROLLBACK}); numbers as whole JSON numbers or numeric text; maxUnavailable and maxSurge also as "25%".
 */
public final class UpdatePolicyOverride {

    /** The file's field names, in the file's order. */
    public static final List<String> FIELDS = List.of("type", "minimalAction", "mostDisruptiveAllowedAction",
            "maxUnavailable", "maxSurge", "minReadySeconds", "partition", "order", "progressDeadlineSeconds", "onFailure", "approveLeader");

    private UpdatePolicyOverride() {
    }

    /**
     * @param fields JSON-like values (String, Number, Boolean) by the file's field names
     * @return a new policy; {@code base} is not changed
     * @throws FleetDefinitionException naming each bad field as {@code updatePolicy.<field>: problem}
     */
    public static UpdatePolicy apply(UpdatePolicy base, Map<String, ?> fields, int replicas) {
        List<String> problems = new ArrayList<>();
        UpdatePolicy policy = applyFields(base, fields, problems);
        // A field that could not be read kept the base's value, so what the validator says is still about real values.
        Set<String> all = new LinkedHashSet<>(problems);
        all.addAll(FleetValidator.updatePolicyProblems(policy, replicas));
        if (!all.isEmpty()) {
            throw new FleetDefinitionException(List.copyOf(all));
        }
        return policy;
    }

    /**
     * {@link #apply(UpdatePolicy, Map, int)} on the set's own policy, also checking what needs the set: a role-aware
     * order needs a role probe unless the workload type has a default one.
     */
    public static UpdatePolicy apply(ReplicaSetSpec set, Map<String, ?> fields) {
        List<String> problems = new ArrayList<>();
        UpdatePolicy policy = applyFields(set.getUpdatePolicy(), fields, problems);
        Set<String> all = new LinkedHashSet<>(problems);
        all.addAll(FleetValidator.updatePolicyProblems(policy, set.getReplicas()));
        all.addAll(FleetValidator.roleProbeProblems(set, policy));
        if (!all.isEmpty()) {
            throw new FleetDefinitionException(List.copyOf(all));
        }
        return policy;
    }

    /**
     * The policy a rollout runs under, what every step of it reads (the planner, the budget check, the health gate, the
     * progress deadline, the approvals): the set's policy with the rollout's override applied. An automatic rollback
     * pauses on failure instead of rolling back again, so that a rollback can never loop.
     *
     * @param fields            the override, null or empty for none
     * @param automaticRollback the rollout is the automatic rollback of a failed one
     * @return a new policy; the set's is not changed
     * @throws FleetDefinitionException naming each bad field of the override
     */
    public static UpdatePolicy effective(ReplicaSetSpec set, Map<String, ?> fields, boolean automaticRollback) {
        UpdatePolicy policy = fields == null || fields.isEmpty() ? copyOf(set.getUpdatePolicy()) : apply(set, fields);
        if (automaticRollback) {
            policy.setOnFailure(FailurePolicy.PAUSE);
            // the way back is held to the fleet file's deadline at least: an override's short deadline was chosen for
            // the new revision, and a rollback cut short by it would leave the set on two revisions
            int file = copyOf(set.getUpdatePolicy()).getProgressDeadlineSeconds();
            policy.setProgressDeadlineSeconds(Math.max(policy.getProgressDeadlineSeconds(), file));
        }
        return policy;
    }

    private static UpdatePolicy copyOf(UpdatePolicy policy) {
        return policy == null ? new UpdatePolicy() : policy.copy();
    }

    private static UpdatePolicy applyFields(UpdatePolicy base, Map<String, ?> fields, List<String> problems) {
        UpdatePolicy policy = base == null ? new UpdatePolicy() : base.copy();
        if (fields == null) {
            return policy;
        }
        for (Map.Entry<String, ?> field : fields.entrySet()) {
            String name = field.getKey();
            Object value = field.getValue();
            try {
                switch (String.valueOf(name)) {
                    case "type" -> policy.setType(enumValue(value, UpdateType.class));
                    case "minimalAction" -> policy.setMinimalAction(enumValue(value, UpdateAction.class));
                    case "mostDisruptiveAllowedAction" -> policy.setMostDisruptiveAllowedAction(enumValue(value, UpdateAction.class));
                    case "maxUnavailable" -> policy.setMaxUnavailable(fixedOrPercent(value));
                    case "maxSurge" -> policy.setMaxSurge(fixedOrPercent(value));
                    case "minReadySeconds" -> policy.setMinReadySeconds(wholeNumber(value));
                    case "partition" -> policy.setPartition(wholeNumber(value));
                    case "order" -> policy.setOrder(enumValue(value, RolloutOrder.class));
                    case "progressDeadlineSeconds" -> policy.setProgressDeadlineSeconds(wholeNumber(value));
                    case "onFailure" -> policy.setOnFailure(enumValue(value, FailurePolicy.class));
                    case "approveLeader" -> policy.setApproveLeader(yesOrNo(value));
                    default -> problems.add("updatePolicy." + name + ": unknown field; known: " + FIELDS);
                }
            } catch (IllegalArgumentException bad) {
                problems.add("updatePolicy." + name + ": " + bad.getMessage());
            }
        }
        return policy;
    }

    private static <E extends Enum<E>> E enumValue(Object value, Class<E> type) {
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        if (value instanceof String text) {
            String normalized = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(normalized)) {
                    return constant;
                }
            }
        }
        throw new IllegalArgumentException("must be one of " + FleetValidator.fileNames(type) + " (was " + shown(value) + ")");
    }

    /** A JSON boolean, or the text true/false as a form or a query string sends it. */
    private static boolean yesOrNo(Object value) {
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof String text && (text.trim().equalsIgnoreCase("true") || text.trim().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(text.trim());
        }
        throw new IllegalArgumentException("must be true or false (was " + shown(value) + ")");
    }

    /** Text as it is (the validator judges it, with the file's messages); a whole number as its digits. */
    private static String fixedOrPercent(Object value) {
        if (value instanceof String text) {
            return text;
        }
        BigDecimal number = value instanceof Number n ? whole(n) : null;
        if (number == null) {
            throw new IllegalArgumentException("must be a whole number or a percentage like 25% (was " + shown(value) + ")");
        }
        return number.toPlainString();
    }

    private static int wholeNumber(Object value) {
        BigDecimal number = null;
        if (value instanceof Number n) {
            number = whole(n);
        } else if (value instanceof String text) {
            try {
                number = whole(new BigDecimal(text.trim()));
            } catch (NumberFormatException notANumber) {
                number = null;
            }
        }
        if (number == null) {
            throw new IllegalArgumentException("must be a whole number (was " + shown(value) + ")");
        }
        try {
            return number.intValueExact();
        } catch (ArithmeticException tooLarge) {
            throw new IllegalArgumentException("is too large (was " + shown(value) + ")");
        }
    }

    /** The number without fraction, or null when it has one (1.5) or is not finite. */
    private static BigDecimal whole(Number n) {
        BigDecimal decimal;
        try {
            decimal = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
        } catch (NumberFormatException notFinite) {
            return null;
        }
        try {
            return new BigDecimal(decimal.toBigIntegerExact());
        } catch (ArithmeticException fraction) {
            return null;
        }
    }

    private static String shown(Object value) {
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }
}
