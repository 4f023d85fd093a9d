package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.delegates.support.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * rollout.bpmn's start: the start form's {@code replicaSet}, {@code dockerCompose} and optional {@code updatePolicy}
 * (JSON text), or the variables our REST API starts it with ({@code targetCompose}, {@code updatePolicyOverride}),
 * checked with the REST API's own rules and messages, and one rollout per set. An env comes sealed, handed over by
 * whoever sealed it ({@link SealedEnvHandover}); with one, the compose may be left out (the set keeps its own).
 */
@Component
class RolloutStartCheck implements ProcedureStartCheck {

    private final ReplicaSets replicaSets;
    private final PolicyOverrides policies;
    private final RolloutStarter rollouts;
    private final ObjectMapper json;
    private final SealedEnvHandover envs;

    RolloutStartCheck(ReplicaSets replicaSets, PolicyOverrides policies, RolloutStarter rollouts, ObjectMapper json, SealedEnvHandover envs) {
        this.envs = envs;
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
        requireNoEnvInClear(start);
        Optional<EnvEncryption.Sealed> env = envs.take(spec.getName());
        ObjectNode body = json.createObjectNode();
        Object compose = start.firstOf(RolloutRequest.DOCKER_COMPOSE, RolloutVariables.TARGET_COMPOSE);
        if (compose == null && env.isPresent()) {
            compose = rollouts.composeOfSet(spec.getName(), "an env rollout without dockerCompose keeps the set's compose");
        }
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
        start.remove(RolloutRequest.ENVS);
        env.ifPresent(sealed -> {
            // ciphertext only a CVM of the app can open, and the names: never a clear value
            start.set(RolloutVariables.TARGET_ENCRYPTED_ENV, ComposeValue.of(sealed.encryptedEnv()));
            start.set(RolloutVariables.TARGET_ENV_KEYS, String.join(",", sealed.envKeys()));
        });
        start.set(RolloutVariables.TARGET_COMPOSE, ComposeValue.of(dockerCompose));
        if (override != null) {
            start.set(RolloutVariables.UPDATE_POLICY_OVERRIDE, override);
        } else {
            start.remove(RolloutVariables.UPDATE_POLICY_OVERRIDE);
        }
        start.set(RolloutVariables.REQUESTED_BY, start.requestedBy(RolloutVariables.REQUESTED_BY));
        return spec.getName();
    }

    /**
     * An env's values reach a rollout only sealed and handed over ({@link SealedEnvHandover}): {@code envs} itself in
     * the engine means someone started the rollout past the paths that seal (the start form's submit, our API), and
     * the sealed variables themselves are the application's to set. Refused, the start rolls back and nothing of it is
     * stored; the message names the variable, never a value. A blank {@code envs} (an empty form field) is no env.
     */
    private static void requireNoEnvInClear(ProcedureStart start) {
        Object clear = start.variable(RolloutRequest.ENVS);
        if (clear != null && !(clear instanceof String text && text.isBlank())) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: reached the engine in clear; start an env rollout with the start form "
                    + "(Tasklist), from Cockpit or with POST /api/replica-sets/{name}/rollouts, which seal the values to the app's key "
                    + "before anything is stored");
        }
        for (String sealed : new String[] {RolloutVariables.TARGET_ENCRYPTED_ENV, RolloutVariables.TARGET_ENV_KEYS}) {
            if (start.variable(sealed) != null) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, sealed + ": is set by the application when it seals an env; send the env as envs "
                        + "through the start form or our API");
            }
        }
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
