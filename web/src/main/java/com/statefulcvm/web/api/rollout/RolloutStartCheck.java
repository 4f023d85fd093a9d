package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ProcedureStartRefused;
import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.web.api.Ordinals;
import com.statefulcvm.web.api.ApiProblem;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.EnvValue;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * rollout.bpmn's start: the start form's {@code replicaSet}, {@code dockerCompose} and optional {@code updatePolicy}
 * (JSON text), or the variables our REST API starts it with ({@code targetCompose}, {@code updatePolicyOverride}),
 * checked with the REST API's own rules and messages, and one rollout per set. An env comes sealed, handed over by
 * whoever sealed it ({@link SealedEnvHandover}); with one, the compose may be left out (the set keeps its own).
 */
@Component
class RolloutStartCheck extends ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(RolloutVariables.REPLICA_SET, RolloutRequest.DOCKER_COMPOSE,
            RolloutRequest.UPDATE_POLICY, RolloutVariables.TARGET_COMPOSE, RolloutVariables.UPDATE_POLICY_OVERRIDE,
            RolloutVariables.TARGET_ORDINALS, RolloutVariables.ROLLBACK_TO_REVISION, RolloutVariables.REQUESTED_BY,
            RolloutVariables.ROLLBACK_RECORDED_ENV,
            // refused with their own message by the check: an env comes sealed and handed over, never as a variable
            RolloutRequest.ENVS, RolloutVariables.TARGET_ENCRYPTED_ENV, RolloutVariables.TARGET_ENV_KEYS);

    private final PolicyOverrides policies;
    private final RolloutStarts rollouts;
    private final ObjectMapper json;
    private final SealedEnvHandover envs;
    private final RevisionHistory revisions;
    private final EnvRegistry recordedEnvs;

    RolloutStartCheck(ReplicaSets replicaSets, PolicyOverrides policies, RolloutStarts rollouts, ObjectMapper json,
                      RevisionHistory revisions, SealedEnvHandover envs, EnvRegistry recordedEnvs) {
        super(RolloutVariables.PROCESS_KEY, START_VARIABLES, replicaSets);
        this.recordedEnvs = recordedEnvs;
        this.envs = envs;
        this.revisions = revisions;
        this.policies = policies;
        this.rollouts = rollouts;
        this.json = json;
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        requireNoEnvInClear(start);
        requireRecordedEnvRollbackByTheApplication(start);
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
        if (start.firstOf(RolloutRequest.DOCKER_COMPOSE) != null && start.firstOf(RolloutVariables.TARGET_COMPOSE) != null) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, "dockerCompose, targetCompose: give the compose once");
        }
        String dockerCompose = RolloutRequest.dockerComposeOf(body);
        String override = RolloutRequest.updatePolicyOf(body);
        policies.effective(spec, override);
        requireRecordedRevision(start, spec, dockerCompose);
        String ordinals = targetOrdinals(start, spec);
        String recordedEnvKeys = recordedEnvKeys(start, spec, ordinals, env.isPresent());
        rollouts.requireNoneRunning(spec.getName());

        start.remove(RolloutRequest.DOCKER_COMPOSE);
        start.remove(RolloutRequest.UPDATE_POLICY);
        start.remove(RolloutRequest.ENVS);
        env.ifPresent(sealed -> {
            // ciphertext only a CVM of the app can open, and the names: never a clear value
            start.set(RolloutVariables.TARGET_ENCRYPTED_ENV, ComposeValue.of(sealed.encryptedEnv()));
            start.set(RolloutVariables.TARGET_ENV_KEYS, String.join(",", sealed.envKeys()));
        });
        if (recordedEnvKeys != null) {
            // each slot is sent its own recorded ciphertext (EnvUpdater): the names say what the rollout changes
            start.set(RolloutVariables.TARGET_ENV_KEYS, recordedEnvKeys);
        }
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

    private static void requireRecordedEnvRollbackByTheApplication(ProcedureStart start) {
        Object given = start.variable(RolloutVariables.ROLLBACK_RECORDED_ENV);
        if (given != null && !Boolean.FALSE.equals(given) && (start.byUser() || !Boolean.TRUE.equals(given))) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, RolloutVariables.ROLLBACK_RECORDED_ENV + ": is set by the"
                    + " application when an approver decides to roll back an env changed behind our back (decide-env-drift in"
                    + " Tasklist); start an env rollout with envs instead");
        }
    }

    /**
     * A rollout that sends the targeted slots their recorded env again is the application's, started by an approver's
     * "rollback" of an env changed behind our back (decide-env-drift.bpmn): refused from anyone else, beside a new env,
     * without target slots, or for a slot whose recorded env cannot be sent again.
     *
     * @return the variable names the recorded envs set, comma-separated; null when the rollout is not such a rollback
     */
    private String recordedEnvKeys(ProcedureStart start, ReplicaSetSpec spec, String ordinals, boolean sealedEnv) {
        Object given = start.variable(RolloutVariables.ROLLBACK_RECORDED_ENV);
        if (given == null || Boolean.FALSE.equals(given)) {
            start.remove(RolloutVariables.ROLLBACK_RECORDED_ENV);
            return null;
        }
        String field = RolloutVariables.ROLLBACK_RECORDED_ENV + ": ";
        if (sealedEnv || ordinals == null) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, field + (sealedEnv ? "sends the recorded env, not a new one"
                    : "needs " + RolloutVariables.TARGET_ORDINALS + ", the slots to send their recorded env again"));
        }
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        for (String ordinal : ordinals.split(",")) {
            EnvValue known = recordedEnvs.slot(spec.getName(), Integer.parseInt(ordinal)).map(SlotEnv::known).orElse(null);
            if (known == null || known.encryptedEnv() == null || known.keys().isEmpty()) {
                throw new ProcedureStartRefused(HttpStatus.CONFLICT, field + spec.slotName(Integer.parseInt(ordinal))
                        + " has no recorded env that can be sent again (no ciphertext kept, or no variable names)");
            }
            keys.addAll(known.keys());
        }
        return String.join(",", keys);
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
