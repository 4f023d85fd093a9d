package com.statefulcvm.web.engine;

import com.statefulcvm.web.api.ProcedureStarts;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.util.xml.Element;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.ArrayList;

/**
 * Hands the start of every process instance to {@link ProcedureStarts} (a process-level start listener), so that the
 * checks run however a procedure is started. ProcedureStarts is looked up when a process starts, not when the engine is built: its checks
 * use the engine's services, which do not exist yet at parse time of the first deployment.
 */
@Component
public class ProcedureStartPlugin extends AbstractProcessEnginePlugin {

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
            public void parseProcess(Element processElement, ProcessDefinitionEntity process) {
                String key = process.getKey();
                // the process's own start, not a start event's: it fires for every instantiation, at a start event
                // (none, message, form) or at any activity (the engine REST API's startInstructions); built in, so a
                // start with skipCustomListeners runs it too
                process.addBuiltInListener(ExecutionListener.EVENTNAME_START,
                        (ExecutionListener) execution -> starts.getObject().check(key, execution));
            }
        });
    }
}
