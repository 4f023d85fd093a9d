package com.statefulcvm.delegates.support;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/** The engine's answer, read from the database as committed now: an aborted or ended procedure has no runtime row. */
@Component
public class EngineProcedureLiveness implements ProcedureLiveness {

    private final RuntimeService runtime;

    public EngineProcedureLiveness(RuntimeService runtime) {
        this.runtime = runtime;
    }

    @Override
    public boolean runs(String processInstanceId) {
        return runtime.createProcessInstanceQuery().processInstanceId(processInstanceId).count() > 0;
    }
}
