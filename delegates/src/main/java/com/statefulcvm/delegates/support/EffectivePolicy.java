package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.AutomaticRollback;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.UpdatePolicyOverride;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.springframework.stereotype.Component;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The policy a rollout runs under, read from its variables: the set's, with the request's override applied
 * ({@link UpdatePolicyOverride#effective}, which decides; this only reads the override and whether the rollout is an
 * automatic rollback). Every step of a rollout that needs the policy asks here (the per-slot steps through
 * {@link SlotReader#policy}), never the fleet file's {@code getUpdatePolicy()}.
 */
@Component
public class EffectivePolicy {

    private static final ObjectMapper JSON = new ObjectMapper();

    public UpdatePolicy of(ReplicaSetSpec spec, VariableScope variables) {
        return UpdatePolicyOverride.effective(spec, parse((String) variables.getVariable(RolloutVariables.UPDATE_POLICY_OVERRIDE)),
                AutomaticRollback.of(variables).isPresent());
    }

    /** @throws com.statefulcvm.fleet.FleetDefinitionException naming each bad field of the override */
    public UpdatePolicy of(ReplicaSetSpec spec, String overrideJson) {
        return UpdatePolicyOverride.effective(spec, parse(overrideJson), false);
    }

    public static Set<Integer> targetOrdinals(VariableScope variables) {
        return parseOrdinals((String) variables.getVariable(RolloutVariables.TARGET_ORDINALS));
    }

    public static Set<Integer> parseOrdinals(String text) {
        if (text == null || text.isBlank()) {
            return Set.of();
        }
        Set<Integer> ordinals = new LinkedHashSet<>();
        Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Integer::valueOf).forEach(ordinals::add);
        return ordinals;
    }

    private static Map<String, Object> parse(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return JSON.readValue(json, new TypeReference<Map<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("updatePolicy: not a JSON object: " + e.getOriginalMessage());
        }
    }
}
