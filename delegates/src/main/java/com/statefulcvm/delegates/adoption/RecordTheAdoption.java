package com.statefulcvm.delegates.adoption;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.RefusalDecisionStarter;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.adoption.Adoption;
import com.statefulcvm.fleet.adoption.AdoptionSurvey;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.adoption.SurveyedCvm;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * "Record what the set runs as its first revision": once approved, the compose most slots run becomes the set's
 * revision (current and update), every other compose a slot runs is recorded beside it (the next rollout converges
 * them), each slot whose evidence is refused is kept running unadmitted (its refusal stands and the decision on it is
 * offered in Tasklist), and the set is adopted. Nothing is stopped or changed on any CVM. What the approver accepted
 * is what must still run: the app is surveyed again, and any change since (another compose, another refusal) sends
 * the adoption back to its survey and approval.
 */
@Component("recordTheAdoption")
public class RecordTheAdoption implements JavaDelegate {

    private static final Logger log = LoggerFactory.getLogger(RecordTheAdoption.class);

    private final ReplicaSets replicaSets;
    private final AppSurveyor surveyor;
    private final RevisionHistory revisions;
    private final RefusalRegistry refusals;
    private final Adoptions adoptions;
    private final ReplicaSetObserver observer;
    private final RefusalDecisionStarter decisions;
    private final Clock clock;

    public RecordTheAdoption(ReplicaSets replicaSets, AppSurveyor surveyor, RevisionHistory revisions, RefusalRegistry refusals,
                             Adoptions adoptions, ReplicaSetObserver observer, RefusalDecisionStarter decisions, Clock clock) {
        this.replicaSets = replicaSets;
        this.surveyor = surveyor;
        this.revisions = revisions;
        this.refusals = refusals;
        this.adoptions = adoptions;
        this.observer = observer;
        this.decisions = decisions;
        this.clock = clock;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(AdoptionVariables.REPLICA_SET));
        String approver = String.valueOf(execution.getVariable(AdoptionVariables.DECIDED_BY));
        Optional<Adoption> earlier = adoptions.adoption(spec.getName());
        if (earlier.isPresent()) {
            execution.setVariable(AdoptionVariables.ADOPTED_REVISION, earlier.get().revision());
            execution.setVariable(AdoptionVariables.OUTCOME, spec.getName() + " was adopted already; nothing recorded again");
            return;
        }
        AdoptionSurvey now = surveyor.survey(spec);
        String changed = changeSinceApproval(execution, spec, now);
        if (changed != null) {
            execution.setVariable(AdoptionVariables.SURVEY_AGAIN_BECAUSE, changed);
            throw new BpmnError(AdoptionVariables.APP_CHANGED, changed);
        }
        Revision first = revisions.record(spec.getName(), now.firstCompose(), approver, "adopted: what "
                + (now.slots().size() - now.mixed().size()) + " of " + now.slots().size() + " slots ran when adopted");
        revisions.setCurrentRevision(spec.getName(), first.number());
        revisions.setUpdateRevision(spec.getName(), first.number());
        Map<Integer, Integer> slotRevisions = new LinkedHashMap<>();
        now.slots().keySet().forEach(ordinal -> slotRevisions.put(ordinal, first.number()));
        for (int ordinal : now.mixed()) {
            String compose = now.slots().get(ordinal).dockerCompose();
            if (compose != null) {
                // the same compose on two slots is one revision (RevisionHistory.record)
                Revision ran = revisions.record(spec.getName(), compose, approver, "adopted: what " + spec.slotName(ordinal)
                        + " ran when adopted, beside revision " + first.number() + "; the next rollout converges it");
                slotRevisions.put(ordinal, ran.number());
            }
        }
        for (int ordinal : now.refused()) {
            SurveyedCvm cvm = now.slots().get(ordinal);
            String code = cvm.admission() == null || !cvm.admission().contains(":") ? "ADMISSION_REJECTED"
                    : cvm.admission().substring(0, cvm.admission().indexOf(':'));
            refusals.save(new Refusal(spec.getName(), ordinal, cvm.instanceId(), code, cvm.admission(), null, clock.instant(),
                    "adoption approved by " + approver));
        }
        adoptions.record(new Adoption(spec.getName(), replicaSets.appId(spec), first.number(), approver, clock.instant(), now.summary(),
                slotRevisions));
        observer.refresh(spec);
        if (!now.refused().isEmpty()) {
            decisions.ensureRunning(spec.getName());
        }
        execution.setVariable(AdoptionVariables.ADOPTED_REVISION, first.number());
        execution.setVariable(AdoptionVariables.ADOPTION_RESULT, "adopted");
        String outcome = spec.getName() + " adopted by " + approver + " as revision " + first.number() + ": " + now.summary();
        execution.setVariable(AdoptionVariables.OUTCOME, outcome);
        log.info("{}", outcome);
    }

    /** What differs from the survey the approver accepted, in words; null when nothing does. */
    private static String changeSinceApproval(DelegateExecution execution, ReplicaSetSpec spec, AdoptionSurvey now) {
        Map<String, String> hashes = now.composeHashesBySlot();
        Object accepted = execution.getVariable(AdoptionVariables.SURVEYED_HASHES);
        if (!Objects.equals(accepted, hashes)) {
            return "the app's CVMs changed after the survey that was approved (slot to compose hash then: " + accepted
                    + ", now: " + hashes + ")";
        }
        Object refusedThen = execution.getVariable(AdoptionVariables.REFUSED_SLOTS);
        List<String> refusedNow = now.slotNames(now.refused());
        if (!Objects.equals(refusedThen, refusedNow)) {
            return "the slots whose evidence would be refused changed after the survey that was approved (then " + refusedThen
                    + ", now " + refusedNow + ")";
        }
        if (!now.acceptable()) {
            return String.join("; ", now.blockers());
        }
        return null;
    }
}
