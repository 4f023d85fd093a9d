package com.statefulcvm.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

/**
 * What {@code GET /api/rollouts/{id}} (and heals, failovers, scales, lights-out recoveries) and a set's procedure list
 * answer, field by field: the JSON is these records, in their order. A field marked {@code NON_NULL} is left out when
 * the procedure has nothing for it; every other field is always there, {@code null} when not known (yet).
 */
public final class Reports {

    private Reports() {
    }

    /** A rollout's report: its revisions and override, the operators' controls, its steps and the rollbacks it started. */
    public record Rollout(String kind, String processInstanceId, Object replicaSet, String state, Instant startedAt,
                          Instant endedAt, Object requestedBy, @JsonInclude(NON_NULL) String calledBy,
                          Object updateRevision,
                          @JsonInclude(NON_NULL) Object lastGoodRevision,
                          @JsonInclude(NON_NULL) Object rollbackToRevision,
                          @JsonInclude(NON_NULL) Object rollbackOf,
                          @JsonInclude(NON_NULL) Object targetOrdinals,
                          /* an env rollout: the names it set (the values went encrypted to the CVMs and are nowhere here) */
                          @JsonInclude(NON_NULL) Object envKeys,
                          @JsonInclude(NON_NULL) JsonNode updatePolicy,
                          /* the operators' pause, resume and abort requests, with who, when and why */
                          @JsonInclude(NON_NULL) JsonNode controls,
                          /* an on-chain KMS app's registration the rollout committed with: compose hash, transaction hash */
                          @JsonInclude(NON_NULL) OnChainRegistration onChainRegistration,
                          /* where it stands: waves done, running and pending, elapsed, paused */
                          @JsonInclude(NON_NULL) RolloutProgress progress,
                          String outcome, String stage, boolean paused,
                          /* only while a pause is asked for and not yet in effect */
                          @JsonInclude(NON_NULL) Boolean pauseRequested,
                          List<JsonNode> steps, List<Object> approvedBy, List<Approval> approvals, List<String> blockers,
                          List<RollbackStarted> rollbacks) {
    }

    /** The compose hash an on-chain KMS app's rollout registered, and the transaction the person gave for it. */
    public record OnChainRegistration(Object composeHash, Object transactionHash) {
    }

    /**
     * The report of a heal, failover, scale or lights-out recovery: what it was asked and decided ({@code details}, by
     * kind), its short result code and its outcome in words.
     */
    public record Procedure(String kind, String processInstanceId, Object replicaSet, String state, Instant startedAt,
                            Instant endedAt, Object requestedBy, @JsonInclude(NON_NULL) String calledBy,
                            @JsonUnwrapped Details details, Object result, String outcome, String stage,
                            List<?> steps, List<Object> approvedBy, List<Approval> approvals, List<String> blockers) {
    }

    /**
     * One row of a set's procedure list. {@code result}: empty for a rollout (it records its outcome in words only),
     * so the field is left out; for the others it is there, {@code null} until the procedure has one.
     */
    public record Row(String kind, String processInstanceId, String state, Object requestedBy, Instant startedAt,
                      Instant endedAt, @JsonInclude(NON_NULL) Optional<Object> result, String outcome,
                      @JsonInclude(NON_NULL) Object slot, @JsonInclude(NON_NULL) String calledBy, String report) {
    }

    /** A user task done in the procedure (an approval, a halt decision): what was decided, by whom, when, why. */
    public record Approval(String task, String taskDefinitionKey, String decision, String by, Instant at,
                           @JsonInclude(NON_NULL) Object comment,
                           /* when a procedure it called holds the task */
                           @JsonInclude(NON_NULL) String processInstanceId) {
    }

    /** A task or call of the procedure's own diagram, as the engine's history holds it. */
    public record ActivityStep(String step, String activityId, Instant startedAt, Instant endedAt,
                               @JsonInclude(NON_NULL) Boolean canceled,
                               @JsonInclude(NON_NULL) String calledProcessInstanceId,
                               /* the instance the step was for, as it saw its slot (a multi-instance's own iteration) */
                               @JsonInclude(NON_NULL) String slot) {
    }

    /** A rollback a rollout started (a rollout whose rollbackOf names it). */
    public record RollbackStarted(String processInstanceId, String state, Instant startedAt, Instant endedAt) {
    }

    /** What a kind of procedure was asked and decided, by the variables it keeps; each field is left out when absent. */
    public sealed interface Details permits HealDetails, FailoverDetails, ScaleDetails, LightsOutDetails, AdoptionDetails {
    }

    @JsonInclude(NON_NULL)
    public record HealDetails(Object slot, Object ordinal, Object trigger, Object reason, Object failure) implements Details {

        static final List<String> VARIABLES = List.of(HealVariables.SLOT, HealVariables.ORDINAL, HealVariables.HEAL_TRIGGER,
                HealVariables.HEAL_REASON, HealVariables.HEAL_FAILURE);

        static HealDetails of(Function<String, Object> variable) {
            return new HealDetails(variable.apply(HealVariables.SLOT), variable.apply(HealVariables.ORDINAL),
                    variable.apply(HealVariables.HEAL_TRIGGER), variable.apply(HealVariables.HEAL_REASON),
                    variable.apply(HealVariables.HEAL_FAILURE));
        }
    }

    @JsonInclude(NON_NULL)
    public record FailoverDetails(Object reason, Object leaderVerdict, Object oldLeader, Object candidate, Object candidateReason,
                                  Object newLeader) implements Details {

        static final List<String> VARIABLES = List.of(FailoverVariables.FAILOVER_REASON, FailoverVariables.LEADER_VERDICT,
                FailoverVariables.OLD_LEADER, FailoverVariables.CANDIDATE, FailoverVariables.CANDIDATE_REASON,
                FailoverVariables.NEW_LEADER);

        static FailoverDetails of(Function<String, Object> variable) {
            return new FailoverDetails(variable.apply(FailoverVariables.FAILOVER_REASON), variable.apply(FailoverVariables.LEADER_VERDICT),
                    variable.apply(FailoverVariables.OLD_LEADER), variable.apply(FailoverVariables.CANDIDATE),
                    variable.apply(FailoverVariables.CANDIDATE_REASON), variable.apply(FailoverVariables.NEW_LEADER));
        }
    }

    @JsonInclude(NON_NULL)
    public record ScaleDetails(Object reason, Object fromReplicas, Object toReplicas, Object direction, Object refusal)
            implements Details {

        static final List<String> VARIABLES = List.of(ScaleVariables.SCALE_REASON, ScaleVariables.CURRENT_REPLICAS,
                ScaleVariables.REQUESTED_REPLICAS, ScaleVariables.DIRECTION, ScaleVariables.SCALE_REFUSAL);

        static ScaleDetails of(Function<String, Object> variable) {
            return new ScaleDetails(variable.apply(ScaleVariables.SCALE_REASON), variable.apply(ScaleVariables.CURRENT_REPLICAS),
                    variable.apply(ScaleVariables.REQUESTED_REPLICAS), variable.apply(ScaleVariables.DIRECTION),
                    variable.apply(ScaleVariables.SCALE_REFUSAL));
        }
    }

    @JsonInclude(NON_NULL)
    public record AdoptionDetails(Object reason, Object summary, Object survey, Object refusedSlots, Object fleetFileDiff,
                                  Object adoptedRevision) implements Details {

        static final List<String> VARIABLES = List.of(AdoptionVariables.ADOPTION_REASON, AdoptionVariables.ADOPTION_SUMMARY,
                AdoptionVariables.ADOPTION_REPORT, AdoptionVariables.REFUSED_SLOTS, AdoptionVariables.FLEET_FILE_DIFF,
                AdoptionVariables.ADOPTED_REVISION);

        static AdoptionDetails of(Function<String, Object> variable) {
            return new AdoptionDetails(variable.apply(AdoptionVariables.ADOPTION_REASON), variable.apply(AdoptionVariables.ADOPTION_SUMMARY),
                    variable.apply(AdoptionVariables.ADOPTION_REPORT), variable.apply(AdoptionVariables.REFUSED_SLOTS),
                    variable.apply(AdoptionVariables.FLEET_FILE_DIFF), variable.apply(AdoptionVariables.ADOPTED_REVISION));
        }
    }

    @JsonInclude(NON_NULL)
    public record LightsOutDetails(Object reason, Object sequenceNumbers, Object chosenSeed, Object seed, Object seedOverridden,
                                   Object followersNotJoined, Object refusal) implements Details {

        static final List<String> VARIABLES = List.of(LightsOutVariables.LIGHTS_OUT_REASON, LightsOutVariables.SEQUENCE_REPORT,
                LightsOutVariables.CHOSEN_SEED, LightsOutVariables.SEED, LightsOutVariables.SEED_OVERRIDDEN,
                LightsOutVariables.FOLLOWERS_NOT_JOINED, LightsOutVariables.REFUSAL);

        static LightsOutDetails of(Function<String, Object> variable) {
            return new LightsOutDetails(variable.apply(LightsOutVariables.LIGHTS_OUT_REASON),
                    variable.apply(LightsOutVariables.SEQUENCE_REPORT), variable.apply(LightsOutVariables.CHOSEN_SEED),
                    variable.apply(LightsOutVariables.SEED), variable.apply(LightsOutVariables.SEED_OVERRIDDEN),
                    variable.apply(LightsOutVariables.FOLLOWERS_NOT_JOINED), variable.apply(LightsOutVariables.REFUSAL));
        }
    }
}
