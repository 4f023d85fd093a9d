package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.delegates.support.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * rollout.bpmn's start: the start form's {@code replicaSet}, {@code dockerCompose} and optional {@code updatePolicy}
 * (JSON text), or the variables our REST API starts it with ({@code targetCompose}, {@code updatePolicyOverride}),
 * checked with the REST API's own rules and messages, and one rollout per set.
 */
@Component
class RolloutStartCheck implements ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(RolloutVariables.REPLICA_SET, RolloutRequest.DOCKER_COMPOSE,
            RolloutRequest.UPDATE_POLICY, RolloutVariables.TARGET_COMPOSE, RolloutVariables.UPDATE_POLICY_OVERRIDE,
            RolloutVariables.TARGET_ORDINALS, RolloutVariables.ROLLBACK_TO_REVISION, RolloutVariables.TARGET_ENCRYPTED_ENV,
            RolloutVariables.TARGET_ENV_KEYS, RolloutVariables.REQUESTED_BY);

    private final ReplicaSets replicaSets;
    private final PolicyOverrides policies;
    private final RolloutStarter rollouts;
    private final ObjectMapper json;
    private final RevisionHistory revisions;

    RolloutStartCheck(ReplicaSets replicaSets, PolicyOverrides policies, RolloutStarter rollouts, ObjectMapper json,
                      RevisionHistory revisions) {
        this.revisions = revisions;
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
    public Set<String> startVariables() {
        return START_VARIABLES;
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
        if (start.firstOf(RolloutRequest.DOCKER_COMPOSE) != null && start.firstOf(RolloutVariables.TARGET_COMPOSE) != null) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, "dockerCompose, targetCompose: give the compose once");
        }
        String dockerCompose = RolloutRequest.dockerComposeOf(body);
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        requireRecordedRevision(start, spec, dockerCompose);
        String ordinals = targetOrdinals(start, spec);
        if ((start.variable(RolloutVariables.TARGET_ENCRYPTED_ENV) == null) != (start.text(RolloutVariables.TARGET_ENV_KEYS) == null)) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, RolloutVariables.TARGET_ENCRYPTED_ENV + ", "
                    + RolloutVariables.TARGET_ENV_KEYS + ": an env rollout gives both (POST /api/replica-sets/"
                    + spec.getName() + "/rollouts with envs encrypts them), any other rollout neither");
        }
        rollouts.requireNoneRunning(spec.getName());

        start.remove(RolloutRequest.DOCKER_COMPOSE);
        start.remove(RolloutRequest.UPDATE_POLICY);
        start.set(RolloutVariables.TARGET_COMPOSE, ComposeValue.of(dockerCompose));
        if (override != null) {
            start.set(RolloutVariables.UPDATE_POLICY_OVERRIDE, override);
        } else {
            start.remove(RolloutVariables.UPDATE_POLICY_OVERRIDE);
        }
        if (ordinals != null) {
            start.set(RolloutVariables.TARGET_ORDINALS, ordinals);
        }
        start.set(RolloutVariables.REQUESTED_BY, start.requestedBy(RolloutVariables.REQUESTED_BY));
        return spec.getName();
    }

    /**
     * A rollback to a recorded revision rolls out exactly that revision's compose: the revision number is what the
     * audit trail shows, so it may not label another compose.
     */
    private void requireRecordedRevision(ProcedureStart start, ReplicaSetSpec spec, String dockerCompose) {
        Object given = start.firstOf(RolloutVariables.ROLLBACK_TO_REVISION);
        if (given == null) {
            return;
        }
        Revision revision = (given instanceof Integer || given instanceof Long ? revisions.revision(spec.getName(), ((Number) given).intValue())
                : Optional.<Revision>empty()).orElseThrow(() -> new ProcedureStartRefused(HttpStatus.BAD_REQUEST,
                RolloutVariables.ROLLBACK_TO_REVISION + ": replica set '" + spec.getName() + "' has no revision '" + given + "'"));
        if (!ComposeText.same(revision.dockerCompose(), dockerCompose)) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, RolloutVariables.ROLLBACK_TO_REVISION + ": the compose given is not revision "
                    + revision.number() + "'s; a rollback rolls out the revision's own compose (POST /api/replica-sets/"
                    + spec.getName() + "/rollbacks)");
        }
        start.set(RolloutVariables.ROLLBACK_TO_REVISION, revision.number());
    }

    /** Comma-separated ordinals of the set, each checked; null when none are given (every slot in scope). */
    private static String targetOrdinals(ProcedureStart start, ReplicaSetSpec spec) {
        String given = start.text(RolloutVariables.TARGET_ORDINALS);
        if (given == null) {
            return null;
        }
        Set<Integer> ordinals = new TreeSet<>();
        for (String part : given.split(",")) {
            try {
                ordinals.add(Ordinals.parse(spec, part.strip()));
            } catch (ApiProblem bad) {
                throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, RolloutVariables.TARGET_ORDINALS + ": " + bad.getMessage());
            }
        }
        return ordinals.stream().map(String::valueOf).collect(Collectors.joining(","));
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
