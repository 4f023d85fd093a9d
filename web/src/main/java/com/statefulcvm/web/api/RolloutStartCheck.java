package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.delegates.support.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

/**
 * rollout.bpmn's start: the start form's {@code replicaSet}, {@code dockerCompose} and optional {@code updatePolicy}
 * (JSON text), or the variables our REST API starts it with ({@code targetCompose}, {@code updatePolicyOverride}),
 * checked with the REST API's own rules and messages, and one rollout per set.
 */
@Component
class RolloutStartCheck implements ProcedureStartCheck {

    private final ReplicaSets replicaSets;
    private final PolicyOverrides policies;
    private final RolloutStarter rollouts;
    private final ObjectMapper json;

    RolloutStartCheck(ReplicaSets replicaSets, PolicyOverrides policies, RolloutStarter rollouts, ObjectMapper json) {
        this.replicaSets = replicaSets;
        this.policies = policies;
        this.rollouts = rollouts;
        this.json = json;
    }

    @Override
    public String processKey() {
        return RolloutVariables.PROCESS_KEY;
    }

    @Override
    public String check(ProcedureStart start) {
        ReplicaSetSpec spec = start.replicaSet(replicaSets);
        ObjectNode body = json.createObjectNode();
        Object compose = start.firstOf(RolloutRequest.DOCKER_COMPOSE, RolloutVariables.TARGET_COMPOSE);
        if (compose != null) {
            body.set(RolloutRequest.DOCKER_COMPOSE, json.valueToTree(compose));
        }
        Object policy = start.firstOf(RolloutRequest.UPDATE_POLICY, RolloutVariables.UPDATE_POLICY_OVERRIDE);
        if (policy != null) {
            body.set(RolloutRequest.UPDATE_POLICY, policy instanceof String text ? parsed(text) : json.valueToTree(policy));
        }
        String dockerCompose = RolloutRequest.dockerComposeOf(body);
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        rollouts.requireNoneRunning(spec.getName());

        start.remove(RolloutRequest.DOCKER_COMPOSE);
        start.remove(RolloutRequest.UPDATE_POLICY);
        start.set(RolloutVariables.TARGET_COMPOSE, ComposeValue.of(dockerCompose));
        if (override != null) {
            start.set(RolloutVariables.UPDATE_POLICY_OVERRIDE, override);
        } else {
            start.remove(RolloutVariables.UPDATE_POLICY_OVERRIDE);
        }
        start.set(RolloutVariables.REQUESTED_BY, start.requestedBy(RolloutVariables.REQUESTED_BY));
        return spec.getName();
    }

    /** A form's text field holds the policy as JSON text; text that is no JSON is refused as "not a JSON object". */
    private JsonNode parsed(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
