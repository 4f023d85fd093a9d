package com.statefulcvm.delegates.attestation;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotEnvs;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;
import com.statefulcvm.fleet.admission.AdmissionDecision;
import com.statefulcvm.fleet.admission.AdmissionRequest;
import com.statefulcvm.fleet.AttestationSpec;
import com.statefulcvm.fleet.admission.AttestedIdentity;
import com.statefulcvm.fleet.admission.NonceBinding;
import com.statefulcvm.delegates.procedure.FenceOverride;
import com.statefulcvm.fleet.admission.AdmittedIdentities;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * "Verify the instance's TDX evidence": draws a nonce, asks the CVM's guest agent for a quote bound to it, verifies
 * the quote and event log, and applies the set's admission policy. The verdict is recorded on the instance
 * (its Attested condition) and returned to the diagram, which refuses to go on without it. A fenced slot is refused
 * ({@value #FENCED}) without asking for evidence unless an operator brings it back ({@link FenceOverride}: a readmit, or
 * the lights-out override); there, an admitted instance lifts the fence. A refused one is fenced by the diagram's next
 * step. An admitted instance's env is compared with the recorded one ({@link SlotEnvs}): a drift is reported, never
 * refused.
 */
@Component("attestInstance")
public class AttestInstance implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(AttestInstance.class);

    /** The code of a refusal because the slot is fenced and the procedure may not lift the fence. */
    public static final String FENCED = "FENCED";

    private final SlotReader slots;
    private final ReplicaSets replicaSets;
    private final EvidenceJudge judge;
    private final ReplicaSetObserver observer;
    private final FenceRegistry fences;
    private final RefusalRegistry refusals;
    private final AdmittedIdentities identities;
    private final ExpectedComposeHashes expected;
    private final SlotEnvs envs;
    private final Clock clock;

    public AttestInstance(SlotReader slots, ReplicaSets replicaSets, EvidenceJudge judge, ReplicaSetObserver observer,
                          FenceRegistry fences, RefusalRegistry refusals, AdmittedIdentities identities,
                          ExpectedComposeHashes expected, SlotEnvs envs, Clock clock) {
        this.envs = envs;
        this.refusals = refusals;
        this.identities = identities;
        this.expected = expected;
        this.slots = slots;
        this.replicaSets = replicaSets;
        this.judge = judge;
        this.observer = observer;
        this.fences = fences;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = slots.read(execution);
        AttestationSpec policy = step.spec().getAttestation();
        AdmissionDecision decision;
        String checks = "";
        int ordinal = replicaSets.ordinalOf(step.spec(), step.slot());
        Optional<Fence> fence = fences.fence(step.spec().getName(), ordinal);
        String liftedBy = FenceOverride.liftedBy(execution);
        if (fence.isPresent() && liftedBy == null) {
            // no procedure but an operator's readmit (or the lights-out override) brings a fenced slot back
            decision = new AdmissionDecision(false, FENCED, List.of(step.slot() + " is " + fence.get().summary()
                    + "; only an operator's readmit lifts the fence"));
            checks = "not verified: the slot is fenced";
        } else if (!policy.isRequired()) {
            decision = AdmissionDecision.admit();
            checks = "attestation not required by the set's policy";
        } else {
            String appId = replicaSets.appId(step.spec());
            NonceBinding nonce = NonceBinding.fresh(appId, step.slot(), step.cvm().instanceId());
            ExpectedComposeHashes.Expected intended = expected.of(step.spec(), step.cvm(), execution);
            String bound = boundInstanceId(execution, step.spec().getName(), ordinal, liftedBy);
            AdmissionRequest request = new AdmissionRequest(step.slot(), appId, intended.hashes(), bound, nonce.reportDataHex());
            if (intended.problem() != null) {
                decision = new AdmissionDecision(false, "EVIDENCE_UNAVAILABLE", List.of("no compose hash to expect: " + intended.problem()));
            } else {
                EvidenceJudge.Judgement judged = judge.judge(step.spec(), step.cvm(), nonce, request);
                decision = judged.decision();
                checks = judged.checks();
                AttestedIdentity identity = judged.identity();
                if (identity != null) {
                    execution.setVariable(AttestationVariables.ATTESTED_PLATFORM, EvidenceJudge.platformOf(identity));
                    if (!decision.admitted() && identity.evidenceValid() && intended.published() != null) {
                        // the compose it runs, proven by its measured hash: the drift an approver may adopt as a revision
                        String running = intended.published().ifMeasured(identity.composeHash());
                        if (running != null && intended.hashes().stream().noneMatch(h -> h.equalsIgnoreCase(identity.composeHash()))) {
                            execution.setVariable(AttestationVariables.ATTESTED_COMPOSE, running);
                        }
                    }
                    checks += "\nexpected compose hashes, from " + String.join(", ", intended.intended()) + " in dstack's app-compose form: "
                            + String.join(", ", intended.hashes()) + "\nbound instance_id: " + (bound == null ? "a new one (created by us)" : bound);
                }
            }
        }
        // the slot's instance row first, its env row after: in the order every step of a procedure writes them (a
        // rollout's probe records the instance before its attestation), so that two attestations of one slot, the
        // monitor's and a procedure's, queue on the instance row instead of each holding the row the other waits for
        record(execution, step, decision, checks, fence.isPresent() ? liftedBy : null);
        if (decision.admitted() && step.cvm().vmUuid() != null) {
            // an env changed behind our back changes no compose hash: only the CVM's revisions show it
            String env = envs.check(step.spec(), replicaSets.appId(step.spec()), ordinal, step.cvm());
            execution.setVariable(AttestationVariables.ATTESTATION_CHECKS, checks + (checks.isEmpty() ? "" : "\n") + env);
        }
        if (decision.admitted() && step.cvm().instanceId() != null) {
            DelegateExecution procedure = FenceOverride.procedureOf(execution);
            identities.admit(step.spec().getName(), ordinal, step.cvm().instanceId(),
                    FenceOverride.processKeyOf(procedure) + " " + procedure.getProcessInstanceId(), clock.instant());
        }
    }

    /**
     * The instance_id the slot must show: null for a CVM the procedure created (a new identity is accepted); otherwise
     * the one our own records bound the slot to (the last one an attestation of ours admitted), whatever Phala reports
     * now; the procedure's own (Phala's, at its start) only before any was recorded, or when an operator readmits the
     * slot (the operator vouches for the instance it runs).
     */
    private String boundInstanceId(DelegateExecution execution, String set, int ordinal, String liftedBy) {
        String requested = (String) execution.getVariable(ProcedureVariables.BOUND_INSTANCE_ID);
        if (requested == null || liftedBy != null) {
            return requested;
        }
        return identities.admitted(set, ordinal).orElse(requested);
    }

    /** @param liftedBy who lifts the slot's fence with this admission (a readmit, the lights-out override); null: none stands */
    private void record(DelegateExecution execution, SlotStep step, AdmissionDecision decision, String checks, String liftedBy) {
        execution.setVariable(ProcedureVariables.ATTESTED, decision.admitted());
        execution.setVariable(AttestationVariables.ATTESTATION_CODE, decision.code());
        execution.setVariable(AttestationVariables.ATTESTATION_REASON, decision.summary());
        execution.setVariable(AttestationVariables.ATTESTATION_CHECKS, checks);
        observer.recordAttestation(step.spec(), step.slot(), decision.admitted(), decision.summary());
        if (decision.admitted()) {
            refusals.lift(step.spec().getName(), replicaSets.ordinalOf(step.spec(), step.slot()));
            if (liftedBy != null) {
                fences.lift(step.spec().getName(), replicaSets.ordinalOf(step.spec(), step.slot()));
                execution.setVariable(AttestationVariables.FENCE_LIFTED_BY, liftedBy);
                log.warn("{} admitted after attestation: its fence is lifted by {}", step.slot(), liftedBy);
            }
            log.info("{} admitted after attestation", step.slot());
        } else {
            log.warn("{} NOT admitted: {}", step.slot(), decision.summary());
        }
    }
}
