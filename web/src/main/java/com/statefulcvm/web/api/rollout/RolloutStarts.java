package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.RunningProcesses;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ApiAccess;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutStarter;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Our API's starts of rollout.bpmn ({@link RolloutStarter}): at most one at a time per set (the business key is the
 * set's name), an env rollout's sealed env handed over to the start check.
 */
@Component
public class RolloutStarts {

    private final RolloutStarter starter;
    private final RunningProcesses running;
    private final ApiAccess access;
    private final SealedEnvHandover envs;
    private final RevisionHistory revisions;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    RolloutStarts(RolloutStarter starter, RunningProcesses running, ApiAccess access, SealedEnvHandover envs, RevisionHistory revisions) {
        this.starter = starter;
        this.running = running;
        this.access = access;
        this.envs = envs;
        this.revisions = revisions;
    }

    /**
     * The compose the set is moving to, or runs: what a rollout that names none keeps (an env rollout, a rollout of
     * one instance). 400 naming dockerCompose when the set has no recorded revision yet.
     */
    String composeOfSet(String name, String why) {
        return revisions.updateRevision(name).or(() -> revisions.currentRevision(name)).map(Revision::dockerCompose)
                .orElseThrow(() -> new ApiProblem(HttpStatus.BAD_REQUEST,
                        "dockerCompose: is required, replica set '" + name + "' has no recorded revision to default to (" + why + ")"));
    }

    /**
     * What a rollout is started with. {@code updatePolicyOverride}: the request's updatePolicy object as JSON text,
     * already validated (null: the set's policy); {@code targetOrdinals}: empty for every slot in the policy's scope;
     * {@code rollbackToRevision}: set when the compose is a recorded revision the operator goes back to;
     * {@code env}: an env rollout's environment, already encrypted to the app's key (null: no env change).
     */
    record Start(String dockerCompose, String updatePolicyOverride, Set<Integer> targetOrdinals, Integer rollbackToRevision,
                 EnvEncryption.Sealed env) {

        Start(String dockerCompose, String updatePolicyOverride, Set<Integer> targetOrdinals, Integer rollbackToRevision) {
            this(dockerCompose, updatePolicyOverride, targetOrdinals, rollbackToRevision, null);
        }

        static Start of(String dockerCompose) {
            return new Start(dockerCompose, null, Set.of(), null);
        }
    }

    /** 409 when a rollout or a scale of the set runs: the one-per-set rule, for every start (REST, Tasklist, engine). */
    void requireNoneRunning(String set) {
        running.requireNoOutage(set, "a rollout");
        running.requireNone(RolloutVariables.PROCESS_KEY, set, "a rollout of '" + set + "' is already running");
        running.requireNone(ScaleVariables.PROCESS_KEY, set, "scale %s of '" + set + "' is running; roll out once it has ended");
        running.requireNone(LightsOutVariables.PROCESS_KEY, set, "lights-out recovery %s of '" + set + "' is running; roll out once it has ended");
    }

    String start(ReplicaSetSpec spec, String dockerCompose) {
        return start(spec, Start.of(dockerCompose));
    }

    String start(ReplicaSetSpec spec, Start start) {
        synchronized (locks.computeIfAbsent(spec.getName(), k -> new Object())) {
            requireNoneRunning(spec.getName());
            // the start itself is checked against the caller's authorizations (CREATE on the instance, CREATE_INSTANCE
            // on the definition); the engine refuses it with an AuthorizationException, answered 403
            var instance = starter.instantiation(spec.getName(), new RolloutStarter.Start(start.dockerCompose(),
                    start.updatePolicyOverride(), start.targetOrdinals(), start.rollbackToRevision()), access.callerId());
            // an env (ciphertext only a CVM of the app can open, and the names) reaches the start check handed over,
            // never as a variable a caller could set
            return start.env() == null ? instance.execute().getId()
                    : envs.during(spec.getName(), start.env(), () -> instance.execute().getId());
        }
    }
}
