package com.statefulcvm.delegates.adoption;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.ComposeValue;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.AdoptionSurvey;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;

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

    public SurveyTheApp(ReplicaSets replicaSets, AppSurveyor surveyor) {
        this.replicaSets = replicaSets;
        this.surveyor = surveyor;
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
    }

    private static Object text(String value) {
        return value.length() <= PLAIN_TEXT_LIMIT ? value : ComposeValue.of(value);
    }
}
