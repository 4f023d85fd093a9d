package com.statefulcvm.delegates.lightsout;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.Map;

import static com.statefulcvm.delegates.procedure.LightsOutVariables.FOLLOWERS_NOT_JOINED;
import static com.statefulcvm.delegates.procedure.RolloutVariables.SLOT;
import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Report that the follower did not join": a follower that did not run, pass attestation (a CVM whose disk is gone
 * comes back with a new instance_id and is refused: it never takes the slot's old identity), become healthy or rejoin
 * within lights-out.seed-timeout is listed with the reason; the next follower is tried. The set runs without it; the
 * health monitor's heal takes it from there once the recovery has ended.
 */
@Component("recordFollowerNotJoined")
public class RecordFollowerNotJoined implements JavaDelegate {

    @Override
    public void execute(DelegateExecution execution) {
        String slot = (String) execution.getVariable(SLOT);
        Object attested = execution.getVariable(ProcedureVariables.ATTESTED);
        Object reason = execution.getVariable(AttestationVariables.ATTESTATION_REASON);
        String why = Boolean.FALSE.equals(attested) && reason != null
                ? "not admitted: " + reason
                : "did not join within " + execution.getVariable(LightsOutVariables.SEED_TIMEOUT) + "; last: " + execution.getVariable(STAGE);
        Map<String, String> notJoined = RecordSequenceNumber.map(execution, FOLLOWERS_NOT_JOINED);
        notJoined.put(slot, why);
        execution.setVariable(FOLLOWERS_NOT_JOINED, notJoined);
        execution.setVariable(STAGE, slot + " did not join: " + why);
    }
}
