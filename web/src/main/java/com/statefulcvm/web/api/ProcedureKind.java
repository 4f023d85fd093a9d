package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The operator procedures a replica set has a history of, each with its diagram's key, the variable its short result
 * code is in (restarted, failed-over, scaled, ...; every kind writes its outcome in words to {@code outcome}), and the
 * details its report shows ({@link Reports.Details}). The report itself is the same code for every kind
 * ({@link ProcedureReport}).
 */
public enum ProcedureKind {

    ROLLOUT("rollout", "rollouts", RolloutVariables.PROCESS_KEY, null, List.of(), variable -> null),
    HEAL("heal", "heals", HealVariables.HEAL_PROCESS, HealVariables.HEAL_RESULT,
            Reports.HealDetails.VARIABLES, Reports.HealDetails::of),
    FAILOVER("failover", "failovers", FailoverVariables.PROCESS_KEY, FailoverVariables.FAILOVER_RESULT,
            Reports.FailoverDetails.VARIABLES, Reports.FailoverDetails::of),
    SCALE("scale", "scales", ScaleVariables.PROCESS_KEY, ScaleVariables.SCALE_RESULT,
            Reports.ScaleDetails.VARIABLES, Reports.ScaleDetails::of),
    LIGHTS_OUT("lights-out-recovery", "lights-out-recoveries", LightsOutVariables.PROCESS_KEY, LightsOutVariables.RESULT,
            Reports.LightsOutDetails.VARIABLES, Reports.LightsOutDetails::of),
    ADOPTION("adoption", "adoptions", AdoptionVariables.PROCESS_KEY, AdoptionVariables.ADOPTION_RESULT,
            Reports.AdoptionDetails.VARIABLES, Reports.AdoptionDetails::of);

    private final String kind;
    private final String collection;
    private final String processKey;
    private final String resultVariable;
    private final List<String> detailVariables;
    private final Function<Function<String, Object>, Reports.Details> details;

    ProcedureKind(String kind, String collection, String processKey, String resultVariable, List<String> detailVariables,
                  Function<Function<String, Object>, Reports.Details> details) {
        this.kind = kind;
        this.collection = collection;
        this.processKey = processKey;
        this.resultVariable = resultVariable;
        this.detailVariables = detailVariables;
        this.details = details;
    }

    /** What the API calls it: rollout, heal, failover, scale, lights-out-recovery, adoption. */
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

    /** The variables its report's details are read from. */
    List<String> detailVariables() {
        return detailVariables;
    }

    /** Its report's details, from the procedure's variables; null for a rollout (its report has its own fields). */
    Reports.Details details(Function<String, Object> variable) {
        return details.apply(variable);
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
}
