package com.statefulcvm.fleet.effects;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where intents are kept. Every write commits at once, in a transaction of its own, whatever transaction the caller is
 * in: an intent must be durable before the call it announces is made, and an outcome must survive the caller's job
 * failing afterwards.
 */
public interface EffectIntentRegistry {

    Optional<EffectIntent> find(String key);

    /** Records a new intent; false when one with the key exists already (another run of the step got there first). */
    boolean record(EffectIntent intent);

    /** Sets the state and outcome of the intent with {@code key}. */
    void settle(String key, EffectState state, String outcome, Instant at);

    /**
     * Makes the intent stand again for a new call, if it is still in {@code expected} state: only one of two concurrent
     * runs wins. False when another did first.
     */
    boolean renew(EffectIntent renewed, EffectState expected);

    /** A procedure's intents (its process instance id), oldest first: its report, and the chaos checker. */
    List<EffectIntent> ofProcedure(String procedureInstanceId);

    /** The intents recorded at or after {@code since}, oldest first. */
    List<EffectIntent> since(Instant since);
}
