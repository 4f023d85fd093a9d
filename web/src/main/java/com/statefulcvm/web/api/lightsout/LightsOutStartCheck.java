package com.statefulcvm.web.api.lightsout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.delegates.lightsout.LightsOutChecks;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.RequestBodies;
import com.statefulcvm.web.api.RequestReason;
import com.statefulcvm.web.api.RunningProcesses;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Everything a lights-out recovery start checks before anything happens, in one place (as
 * {@link com.statefulcvm.web.api.scale.ScaleStartCheck} does for a scale): the body (an optional {@code reason}, nothing else), whether the set's workload type can be
 * recovered (a {@code sequence-<type>} procedure is deployed; 400), and the procedures that must not run beside it
 * (409: another lights-out recovery, a rollout, a scale, a failover, a heal or a re-attestation of one of its
 * instances). The checks of the running procedures are made without the caller's authorizations.
 * The same checks guard lights-out-recovery.bpmn's start through the engine, from the start form ({@code replicaSet},
 * optional {@code reason} and {@code readmitFenced}) or our REST API ({@code lightsOutReason} already worded), with
 * the REST API's messages.
 */
@Component
class LightsOutStartCheck extends ProcedureStartCheck {

    /**
     * {@code readmitFenced}: the operator's recorded override (fenced slots are started too); {@code lightsOutTrigger}:
     * {@code outage} when the health monitor proposes the recovery (its seed decision is then always an operator's).
     */
    static final Set<String> START_VARIABLES = Set.of(LightsOutVariables.REPLICA_SET, ProcedureVariables.REASON, LightsOutVariables.LIGHTS_OUT_REASON,
            LightsOutVariables.REQUESTED_BY, LightsOutVariables.READMIT_FENCED, LightsOutVariables.LIGHTS_OUT_TRIGGER,
            LightsOutVariables.OVERRIDE_NO_OUTAGE);

    private final LightsOutChecks checks;
    private final RunningProcesses running;
    private final RepositoryService repository;
    private final ObjectMapper json;
    private final OutageNow outage;

    LightsOutStartCheck(ReplicaSets replicaSets, LightsOutChecks checks, RunningProcesses running, ProcessEngine engine, ObjectMapper json,
                        OutageNow outage) {
        super(LightsOutVariables.PROCESS_KEY, START_VARIABLES, replicaSets);
        this.outage = outage;
        this.checks = checks;
        this.running = running;
        this.repository = engine.getRepositoryService();
        this.json = json;
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        ObjectNode body = start.requestBody(json, LightsOutVariables.READMIT_FENCED, start.variable(LightsOutVariables.READMIT_FENCED));
        if (start.variable(LightsOutVariables.OVERRIDE_NO_OUTAGE) != null && !body.has(LightsOutVariables.OVERRIDE_NO_OUTAGE)) {
            body.set(LightsOutVariables.OVERRIDE_NO_OUTAGE, json.valueToTree(start.variable(LightsOutVariables.OVERRIDE_NO_OUTAGE)));
        }
        Request request = request(spec.getName(), body);
        requireNothingRunning(spec.getName());
        if (!"outage".equals(start.text(LightsOutVariables.LIGHTS_OUT_TRIGGER))) {
            // the start form's reason, or the one our API worded into lightsOutReason ("requested by <user>: <reason>")
            String worded = start.text(LightsOutVariables.LIGHTS_OUT_REASON);
            requireOutageOrOverride(spec, request, request.reason() != null && !request.reason().isBlank()
                    || worded != null && worded.contains(": "));
        }
        start.set(LightsOutVariables.OVERRIDE_NO_OUTAGE, request.overrideNoOutage());

        start.set(LightsOutVariables.READMIT_FENCED, request.readmitFenced());
        start.recordRequest(LightsOutVariables.LIGHTS_OUT_REASON, request.reason());
        // every slot is held (HealStarter's claims) from the start, not only from "Plan the recovery" (a job of its
        // own): a monitor round in between would otherwise heal, re-attest or fence one of them
        start.set(RolloutVariables.WAVE, new ArrayList<>(IntStream.range(0, spec.getReplicas()).mapToObj(spec::slotName).toList()));
        return spec.getName();
    }

    /**
     * A start's body: an optional {@code reason}, and {@code readmitFenced} (optional boolean, default false): the
     * operator's recorded override that starts fenced slots too and lets their attestation lift the fence.
     */
    record Request(String reason, boolean readmitFenced, boolean overrideNoOutage) {
    }

    /**
     * A recovery restarts every member: on a set in no outage it is taken only with the operator's explicit override and
     * a reason, both recorded. The health monitor's own proposal is for an outage it declared.
     *
     * @throws ApiProblem 409 naming the fields
     */
    private void requireOutageOrOverride(ReplicaSetSpec spec, Request request, boolean reasonGiven) {
        Optional<String> healthy = outage.notInOutage(spec);
        if (healthy.isPresent() && (!request.overrideNoOutage() || !reasonGiven)) {
            throw new ApiProblem(HttpStatus.CONFLICT, "replica set '" + spec.getName() + "' is not in an outage (" + healthy.get()
                    + "): a lights-out recovery stops every member's workload and restarts it; to recover it anyway give "
                    + LightsOutVariables.OVERRIDE_NO_OUTAGE + ": true and a reason");
        }
    }

    /** @throws ApiProblem 400 naming the field or the cause */
    Request request(String set, JsonNode body) {
        String reason = null;
        boolean readmitFenced = false;
        boolean overrideNoOutage = false;
        if (body != null && !body.isNull()) {
            RequestBodies.requireObject(body, "{\"reason\": \"<why>\", \"readmitFenced\": false, \"overrideNoOutage\": false} (all optional)");
            RequestBodies.onlyFields(body, "reason", LightsOutVariables.READMIT_FENCED, LightsOutVariables.OVERRIDE_NO_OUTAGE);
            reason = RequestReason.reasonOf(body);
            readmitFenced = flag(body, LightsOutVariables.READMIT_FENCED);
            overrideNoOutage = flag(body, LightsOutVariables.OVERRIDE_NO_OUTAGE);
        }
        Optional<String> refusal = checks.refusal(set, repository);
        if (refusal.isPresent()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, refusal.get());
        }
        return new Request(reason, readmitFenced, overrideNoOutage);
    }

    private static boolean flag(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": must be true or false");
        }
        return value.asBoolean();
    }

    /** @throws ApiProblem 409 when a procedure that changes the set's instances runs */
    void requireNothingRunning(String set) {
        running.requireNone(LightsOutVariables.PROCESS_KEY, set, "a lights-out recovery of replica set '" + set + "' is already running");
        running.requireNone(RolloutVariables.PROCESS_KEY, set, "rollout %s is working on replica set '" + set + "'; abort it first");
        running.requireNone(ScaleVariables.PROCESS_KEY, set, "scale %s of replica set '" + set + "' is running; stop it first");
        running.requireNone(FailoverVariables.PROCESS_KEY, set, "failover %s of replica set '" + set + "' is running; recover once it has ended");
        running.requireNoHeal(set, "heal %s of an instance of replica set '" + set + "' is running; recover once the heal has ended");
        // The recovery holds every slot against the monitor's heals and re-attestations while it runs (HealStarter's
        // claims), but one already running would still fence, and stop, an instance the recovery is starting.
        running.requireNoAdmission(set, "re-attestation %s of an instance of replica set '" + set + "' is running; recover once it has ended");
    }
}
