package com.statefulcvm.fleet.effects;

import java.time.Instant;

/**
 * One effect the orchestrator means to have Phala apply to one CVM, recorded and committed before the call is made,
 * so that whoever runs the step again (the same job after a crash, a kill or a database restart, on this node or
 * another) reads it back and does not ask a second time without looking first.
 *
 * @param key        what identifies the intention: the procedure, the slot and its attempt, the effect and its target
 *                   (see the delegates' EffectScope); two runs of one step build the same key
 * @param cvm        the CVM's id, or its name for a CVM that does not exist yet (a create)
 * @param target     what the effect brings, where it matters (the digest of the target compose, the env's names); null
 * @param procedure  which procedure intends it: its process definition key (or another caller, such as "bootstrap")
 * @param procedureInstanceId its process instance id; null for a caller outside the engine
 * @param intendedAt when the intent was committed (the orchestrator's clock), the moment any sign of the effect at Phala
 *                   is compared to
 * @param intendedBy the node that recorded it (host and process id)
 * @param outcome    the last thing learnt: Phala's answer, its refusal, or what a later look showed
 * @param attempts   how often the call was made for this intent: more than 1 only after Phala showed an earlier one
 *                   had not taken
 */
public record EffectIntent(String key, String replicaSet, String slot, String cvm, Effect effect, String target,
                           String procedure, String procedureInstanceId, EffectState state, Instant intendedAt, String intendedBy, Instant settledAt,
                           String outcome, int attempts) {

    public EffectIntent settled(EffectState newState, String newOutcome, Instant at) {
        return new EffectIntent(key, replicaSet, slot, cvm, effect, target, procedure, procedureInstanceId, newState, intendedAt, intendedBy, at,
                newOutcome, attempts);
    }

    /** The intent made again, after Phala showed the earlier call had not taken. */
    public EffectIntent again(String newCvm, Instant at, String node) {
        return new EffectIntent(key, replicaSet, slot, newCvm, effect, target, procedure, procedureInstanceId, EffectState.INTENDED, at, node, null,
                null, attempts + 1);
    }

    /** "restart of webdemo-1 (intended 2025-… by node-1, applied: …)": for stages, logs and the report. */
    public String describe() {
        return effect.name().toLowerCase().replace('_', ' ') + " of " + slot + " (intended " + intendedAt + " by " + intendedBy
                + ", " + state.name().toLowerCase().replace('_', ' ') + (outcome == null ? "" : ": " + outcome) + ")";
    }
}
