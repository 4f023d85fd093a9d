package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;

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
public enum ProcedureKind {

    ROLLOUT("rollout", "rollouts", RolloutVariables.PROCESS_KEY, null, Map.of()),
    HEAL("heal", "heals", HealVariables.HEAL_PROCESS, HealVariables.HEAL_RESULT, details(
            HealVariables.SLOT, "slot", HealVariables.ORDINAL, "ordinal", HealVariables.HEAL_TRIGGER, "trigger",
            HealVariables.HEAL_REASON, "reason", HealVariables.HEAL_FAILURE, "failure")),
    FAILOVER("failover", "failovers", FailoverVariables.PROCESS_KEY, FailoverVariables.FAILOVER_RESULT, details(
            FailoverVariables.FAILOVER_REASON, "reason", FailoverVariables.LEADER_VERDICT, "leaderVerdict",
            FailoverVariables.OLD_LEADER, "oldLeader", FailoverVariables.CANDIDATE, "candidate",
            FailoverVariables.CANDIDATE_REASON, "candidateReason", FailoverVariables.NEW_LEADER, "newLeader")),
    SCALE("scale", "scales", ScaleVariables.PROCESS_KEY, ScaleVariables.SCALE_RESULT, details(
            ScaleVariables.SCALE_REASON, "reason", ScaleVariables.CURRENT_REPLICAS, "fromReplicas",
            ScaleVariables.REQUESTED_REPLICAS, "toReplicas", ScaleVariables.DIRECTION, "direction",
            ScaleVariables.SCALE_REFUSAL, "refusal")),
    LIGHTS_OUT("lights-out-recovery", "lights-out-recoveries", LightsOutVariables.PROCESS_KEY, LightsOutVariables.RESULT, details(
            LightsOutVariables.LIGHTS_OUT_REASON, "reason", LightsOutVariables.SEQUENCE_REPORT, "sequenceNumbers",
            LightsOutVariables.CHOSEN_SEED, "chosenSeed", LightsOutVariables.SEED, "seed",
            LightsOutVariables.SEED_OVERRIDDEN, "seedOverridden", LightsOutVariables.FOLLOWERS_NOT_JOINED, "followersNotJoined",
            LightsOutVariables.REFUSAL, "refusal"));

    private final String kind;
    private final String collection;
    private final String processKey;
    private final String resultVariable;
    private final Map<String, String> details;

    ProcedureKind(String kind, String collection, String processKey, String resultVariable, Map<String, String> details) {
        this.kind = kind;
        this.collection = collection;
        this.processKey = processKey;
        this.resultVariable = resultVariable;
        this.details = details;
    }

    /** What the API calls it: rollout, heal, failover, scale, lights-out-recovery. */
    String kind() {
        return kind;
    }

    /** Where its reports are: {@code /api/<collection>/<id>}. */
    String reportPath(String processInstanceId) {
        return "/api/" + collection + "/" + processInstanceId;
    }

    /** The kind in the plural, as an operator reads it in a refusal. */
    String plural() {
        return collection.replace('-', ' ');
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
