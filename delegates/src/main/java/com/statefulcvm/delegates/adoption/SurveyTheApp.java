package com.statefulcvm.delegates.adoption;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.AdoptionSurvey;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.adoption.SurveyedCvm;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * "Survey the app's CVMs": what each runs and would be admitted as, for the approver ({@link AppSurveyor}); touches
 * nothing.
 */
@Component("surveyTheApp")
public class SurveyTheApp implements JavaDelegate {

    /** Camunda keeps a String variable in 4000 characters; a longer report is kept as a JSON value (ComposeValue). */
    private static final int PLAIN_TEXT_LIMIT = 3900;

    private final ReplicaSets replicaSets;
    private final AppSurveyor surveyor;
    private final RepositoryService repository;
    private final RolloutSettings settings;

    public SurveyTheApp(ReplicaSets replicaSets, AppSurveyor surveyor, RepositoryService repository, RolloutSettings settings) {
        this.replicaSets = replicaSets;
        this.surveyor = surveyor;
        this.repository = repository;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(AdoptionVariables.REPLICA_SET));
        AdoptionSurvey survey = surveyor.survey(spec);
        Object again = execution.getVariable(AdoptionVariables.SURVEY_AGAIN_BECAUSE);
        String report = (again == null ? "" : "Surveyed again: " + again + "\n\n") + survey.report();
        execution.setVariable(AdoptionVariables.ADOPTION_REPORT, text(report));
        execution.setVariable(AdoptionVariables.ADOPTION_SUMMARY, survey.summary());
        execution.setVariable(AdoptionVariables.ADOPTION_ACCEPTABLE, survey.acceptable());
        execution.setVariable(AdoptionVariables.REFUSED_SLOTS, new ArrayList<>(survey.slotNames(survey.refused())));
        execution.setVariable(AdoptionVariables.SURVEYED_HASHES, new LinkedHashMap<>(survey.composeHashesBySlot()));
        String diff = survey.firstCompose() == null || spec.getDockerCompose() == null
                || ComposeText.same(spec.getDockerCompose(), survey.firstCompose()) ? ""
                : ComposeText.diff(spec.getDockerCompose(), survey.firstCompose());
        execution.setVariable(AdoptionVariables.FLEET_FILE_DIFF, text(diff));
        execution.setVariable(AdoptionVariables.STAGE, survey.acceptable() ? "waiting for an approver: " + survey.summary() : survey.summary());
        execution.setVariable(AdoptionVariables.ADOPTION_RESULT, survey.acceptable() ? "awaiting-approval" : "cannot-adopt");
        if (!survey.acceptable()) {
            execution.setVariable(AdoptionVariables.OUTCOME, spec.getName() + " " + survey.summary());
        }
        askForSequenceNumbers(execution, spec, survey);
    }

    /**
     * What the diagram's next step asks: each running slot, through the type's own sequence-&lt;type&gt; (a read: a WAL
     * position, a raft index, the compose's counter), bounded by the set's lights-out sequence timeout.
     */
    private void askForSequenceNumbers(DelegateExecution execution, ReplicaSetSpec spec, AdoptionSurvey survey) {
        String procedure = "sequence-" + spec.getWorkloadType();
        boolean hasOne = repository.createProcessDefinitionQuery().processDefinitionKey(procedure).count() > 0;
        List<String> running = survey.slots().values().stream().filter(c -> CvmInfo.STATUS_RUNNING.equals(c.status()))
                .sorted(Comparator.comparing(SurveyedCvm::ordinal)).map(c -> spec.slotName(c.ordinal())).toList();
        execution.setVariable(AdoptionVariables.SEQUENCE_SLOTS, new ArrayList<>(hasOne ? running : List.of()));
        execution.setVariable(AdoptionVariables.SEQUENCE_REPORT, hasOne ? "" : "not asked: workload type " + spec.getWorkloadType()
                + " has no " + procedure + " procedure");
        execution.setVariable(LightsOutVariables.SEQUENCE_NUMBERS, new LinkedHashMap<>());
        execution.setVariable(LightsOutVariables.SEQUENCE_SOURCES, new LinkedHashMap<>());
        execution.setVariable(LightsOutVariables.SEQUENCE_GENERATIONS, new LinkedHashMap<>());
        execution.setVariable(LightsOutVariables.UNANSWERED, new LinkedHashMap<>());
        execution.setVariable(AdoptionVariables.WORKLOAD_TYPE, spec.getWorkloadType());
        execution.setVariable(LightsOutVariables.SEQUENCE_TIMEOUT, Duration.ofSeconds(spec.getLightsOut().getSequenceTimeoutSeconds()).toString());
        execution.setVariable(RolloutVariables.HOOK_POLL_INTERVAL, settings.cvmPollIntervalIso());
    }

    private static Object text(String value) {
        return value.length() <= PLAIN_TEXT_LIMIT ? value : ComposeValue.of(value);
    }
}
