package com.statefulcvm.web.api;

import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.model.bpmn.instance.BaseElement;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.camunda.bpm.model.xml.instance.ModelElementInstance;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A step's name as reports show it: the diagrams label their steps in words ("Drain the instance (its workload's
 * drain procedure)"), and a step that runs once per instance keeps the name it is reported by, with the instance in
 * it, as its {@code stepName} property ({@code Drain ${slot} (drain-${workloadType})}). User tasks set their own name
 * for Tasklist when they are created, so the task's name is what reports show for them.
 */
@Component
class StepNames {

    static final String PROPERTY = "stepName";

    private final RepositoryService repository;
    // a deployed definition never changes: read once per definition id
    private final Map<String, Map<String, String>> byDefinition = new ConcurrentHashMap<>();

    StepNames(RepositoryService repository) {
        this.repository = repository;
    }

    Optional<String> template(String processDefinitionId, String activityId) {
        if (processDefinitionId == null || activityId == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(byDefinition.computeIfAbsent(processDefinitionId, this::read).get(activityId));
    }

    private Map<String, String> read(String processDefinitionId) {
        Map<String, String> names = new HashMap<>();
        for (CamundaProperty property : repository.getBpmnModelInstance(processDefinitionId).getModelElementsByType(CamundaProperty.class)) {
            // camunda:property in camunda:properties in extensionElements in the step
            ModelElementInstance step = property.getParentElement() == null || property.getParentElement().getParentElement() == null ? null
                    : property.getParentElement().getParentElement().getParentElement();
            if (PROPERTY.equals(property.getCamundaName()) && step instanceof BaseElement element) {
                names.put(element.getId(), property.getCamundaValue());
            }
        }
        return names;
    }
}
