package com.statefulcvm.web.api;

import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.ArrayList;

/**
 * Hands every process-level start event to {@link ProcedureStarts} as a start listener, so that the checks run however a
 * procedure is started. ProcedureStarts is looked up when a process starts, not when the engine is built: its checks
 * use the engine's services, which do not exist yet at parse time of the first deployment.
 */
@Component
class ProcedureStartPlugin extends AbstractProcessEnginePlugin {

    private final ObjectProvider<ProcedureStarts> starts;

    ProcedureStartPlugin(ObjectProvider<ProcedureStarts> starts) {
        this.starts = starts;
    }

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        if (configuration.getCustomPostBPMNParseListeners() == null) {
            configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
        }
        configuration.getCustomPostBPMNParseListeners().add(new AbstractBpmnParseListener() {
            @Override
            public void parseStartEvent(Element startEventElement, ScopeImpl scope, ActivityImpl startEventActivity) {
                if (scope instanceof ProcessDefinitionEntity process) {
                    String key = process.getKey();
                    // built in: also run for a start with skipCustomListeners, which the engine REST API offers
                    startEventActivity.addBuiltInListener(ExecutionListener.EVENTNAME_START,
                            (ExecutionListener) execution -> starts.getObject().check(key, execution));
                }
            }
        });
    }
}
