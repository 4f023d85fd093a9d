package com.statefulcvm.delegates.support;

import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.fleet.effects.EffectState;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The intents in memory, for unit tests: the same contract as the JDBC registry (which its own tests check). */
public final class MemoryEffectIntents implements EffectIntentRegistry {

    private final Map<String, EffectIntent> intents = new ConcurrentHashMap<>();

    @Override
    public Optional<EffectIntent> find(String key) {
        return Optional.ofNullable(intents.get(key));
    }

    @Override
    public boolean record(EffectIntent intent) {
        return intents.putIfAbsent(intent.key(), intent) == null;
    }

    @Override
    public synchronized void settle(String key, EffectState state, String outcome, Instant at) {
        intents.computeIfPresent(key, (k, i) -> i.settled(state, outcome, at));
    }

    @Override
    public synchronized boolean renew(EffectIntent renewed, EffectState expected) {
        EffectIntent current = intents.get(renewed.key());
        if (current == null || current.state() != expected) {
            return false;
        }
        intents.put(renewed.key(), renewed);
        return true;
    }

    @Override
    public List<EffectIntent> ofProcedure(String procedureInstanceId) {
        return intents.values().stream().filter(i -> Objects.equals(i.procedureInstanceId(), procedureInstanceId))
                .sorted(Comparator.comparing(EffectIntent::intendedAt)).toList();
    }

    @Override
    public List<EffectIntent> since(Instant since) {
        return intents.values().stream().filter(i -> !i.intendedAt().isBefore(since))
                .sorted(Comparator.comparing(EffectIntent::intendedAt)).toList();
    }

    /** Puts an intent as an earlier run left it. */
    public void put(EffectIntent intent) {
        intents.put(intent.key(), intent);
    }

    public List<EffectIntent> all() {
        return List.copyOf(intents.values());
    }
}
