package com.statefulcvm.web.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.stereotype.Component;

/**
 * {@code orchestrator.approvals.open}: the user tasks waiting in Tasklist (approvals and the operator's decisions on a
 * halted procedure), counted at each scrape whatever the scraping user may read.
 */
@Component
class OpenApprovals {

    OpenApprovals(ProcessEngine engine, MeterRegistry registry) {
        TaskService tasks = engine.getTaskService();
        ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        Gauge.builder("orchestrator.approvals.open", () -> configuration.getCommandExecutorTxRequired().execute(
                        context -> context.runWithoutAuthorization(() -> tasks.createTaskQuery().active().count())))
                .description("User tasks waiting in Tasklist: approvals and decisions on halted procedures")
                .register(registry);
    }
}
