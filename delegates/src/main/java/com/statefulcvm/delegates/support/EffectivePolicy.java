package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.AutomaticRollback;
import com.statefulcvm.fleet.FailurePolicy;
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
 * The policy a rollout runs under: the set's, with the request's override applied. An automatic rollback pauses on
 * failure instead of rolling back again, so that a rollback can never loop.
 */
@Component
public class EffectivePolicy {

    private static final ObjectMapper JSON = new ObjectMapper();

    public UpdatePolicy of(ReplicaSetSpec spec, VariableScope variables) {
        UpdatePolicy policy = of(spec, (String) variables.getVariable(RolloutVariables.UPDATE_POLICY_OVERRIDE));
        if (AutomaticRollback.of(variables).isPresent()) {
            policy.setOnFailure(FailurePolicy.PAUSE);
        }
        return policy;
    }

    /** @throws com.statefulcvm.fleet.FleetDefinitionException naming each bad field of the override */
    public UpdatePolicy of(ReplicaSetSpec spec, String overrideJson) {
        if (overrideJson == null || overrideJson.isBlank()) {
            return spec.getUpdatePolicy().copy();
        }
        return UpdatePolicyOverride.apply(spec, parse(overrideJson));
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
        try {
            return JSON.readValue(json, new TypeReference<Map<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("updatePolicy: not a JSON object: " + e.getOriginalMessage());
        }
    }
}
