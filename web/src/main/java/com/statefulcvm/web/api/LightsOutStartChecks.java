package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.lightsout.LightsOutChecks;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Everything a lights-out recovery start checks before anything happens, in one place (as {@link ScaleStartChecks}
 * does for a scale): the body (an optional {@code reason}, nothing else), whether the set's workload type can be
 * recovered (a {@code sequence-<type>} procedure is deployed; 400), and the procedures that must not run beside it
 * (409: another lights-out recovery, a rollout, a scale, a failover, a heal or a re-attestation of one of its
 * instances). The checks of the running procedures are made without the caller's authorizations.
 */
@Component
class LightsOutStartChecks {

    private final LightsOutChecks checks;
    private final RunningProcesses running;
    private final RepositoryService repository;

    LightsOutStartChecks(LightsOutChecks checks, RunningProcesses running, ProcessEngine engine) {
        this.checks = checks;
        this.running = running;
        this.repository = engine.getRepositoryService();
    }

    /**
     * A start's body: an optional {@code reason}, and {@code readmitFenced} (optional boolean, default false): the
     * operator's recorded override that starts fenced slots too and lets their attestation lift the fence.
     */
    record Request(String reason, boolean readmitFenced) {
    }

    /** @throws ApiProblem 400 naming the field or the cause */
    Request request(String set, JsonNode body) {
        String reason = null;
        boolean readmitFenced = false;
        if (body != null && !body.isNull()) {
            RolloutRequest.requireObject(body, "{\"reason\": \"<why>\", \"readmitFenced\": false} (both optional)");
            RolloutRequest.onlyFields(body, "reason", LightsOutVariables.READMIT_FENCED);
            reason = RequestReason.reasonOf(body);
            JsonNode override = body.get(LightsOutVariables.READMIT_FENCED);
            if (override != null && !override.isNull()) {
                if (!override.isBoolean()) {
                    throw new ApiProblem(HttpStatus.BAD_REQUEST, LightsOutVariables.READMIT_FENCED + ": must be true or false");
                }
                readmitFenced = override.asBoolean();
            }
        }
        Optional<String> refusal = checks.refusal(set, repository);
        if (refusal.isPresent()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, refusal.get());
        }
        return new Request(reason, readmitFenced);
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
