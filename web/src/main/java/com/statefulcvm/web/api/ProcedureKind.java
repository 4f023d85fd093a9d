package com.statefulcvm.web.api;

import com.statefulcvm.delegates.failover.FailoverVariables;
import com.statefulcvm.delegates.heal.HealVariables;
import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.delegates.scale.ScaleVariables;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The operator procedures a replica set has a history of, each with its diagram's key, the variable its short result
 * code is in (restarted, failed-over, scaled, ...; every kind writes its outcome in words to {@code outcome}), and the
 * variables its report shows (variable name → report field). The report itself is the same code
 * for every kind ({@link ProcedureReport}).
 */
enum ProcedureKind {

    ROLLOUT("rollout", RolloutVariables.PROCESS_KEY, null, Map.of()),
    HEAL("heal", HealVariables.HEAL_PROCESS, HealVariables.HEAL_RESULT, details(
            HealVariables.SLOT, "slot", HealVariables.ORDINAL, "ordinal", HealVariables.HEAL_TRIGGER, "trigger",
            HealVariables.HEAL_REASON, "reason", HealVariables.HEAL_FAILURE, "failure")),
    FAILOVER("failover", FailoverVariables.PROCESS_KEY, FailoverVariables.FAILOVER_RESULT, details(
            FailoverVariables.FAILOVER_REASON, "reason", FailoverVariables.LEADER_VERDICT, "leaderVerdict",
            FailoverVariables.OLD_LEADER, "oldLeader", FailoverVariables.CANDIDATE, "candidate",
            FailoverVariables.CANDIDATE_REASON, "candidateReason", FailoverVariables.NEW_LEADER, "newLeader")),
    SCALE("scale", ScaleVariables.PROCESS_KEY, ScaleVariables.SCALE_RESULT, details(
            ScaleVariables.SCALE_REASON, "reason", ScaleVariables.CURRENT_REPLICAS, "fromReplicas",
            ScaleVariables.REQUESTED_REPLICAS, "toReplicas", ScaleVariables.DIRECTION, "direction",
            ScaleVariables.SCALE_REFUSAL, "refusal"));

    private final String kind;
    private final String processKey;
    private final String resultVariable;
    private final Map<String, String> details;

    ProcedureKind(String kind, String processKey, String resultVariable, Map<String, String> details) {
        this.kind = kind;
        this.processKey = processKey;
        this.resultVariable = resultVariable;
        this.details = details;
    }

    /** What the API calls it: rollout, heal, failover, scale. */
    String kind() {
        return kind;
    }

    String processKey() {
        return processKey;
    }

    /** Null for a rollout: its outcome in words is all it records. */
    String resultVariable() {
        return resultVariable;
    }

    /** Variable name → report field, in the report's order. */
    Map<String, String> details() {
        return details;
    }

    static String[] processKeys() {
        return Arrays.stream(values()).map(ProcedureKind::processKey).toArray(String[]::new);
    }

    static Optional<ProcedureKind> ofProcessKey(String processKey) {
        return Arrays.stream(values()).filter(k -> k.processKey.equals(processKey)).findFirst();
    }

    /** The kind an API caller names (any case); empty for a name that is none. */
    static Optional<ProcedureKind> named(String name) {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(k -> k.kind.equals(wanted)).findFirst();
    }

    static List<String> names() {
        return Arrays.stream(values()).map(ProcedureKind::kind).toList();
    }

    private static Map<String, String> details(String... pairs) {
        Map<String, String> details = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            details.put(pairs[i], pairs[i + 1]);
        }
        return details;
    }
}
