package com.statefulcvm.web.engine;

import com.statefulcvm.web.metrics.EngineMetrics;
import com.statefulcvm.web.api.ProcedureStarts;
import io.micrometer.core.instrument.MeterRegistry;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.util.ArrayList;

/** Adds {@link EngineMetrics} to the engine's history event handlers; the engine's own database handler stays. */
@Component
class EngineMetricsPlugin extends AbstractProcessEnginePlugin {

    private final ObjectProvider<MeterRegistry> registry;
    private final ObjectProvider<ProcedureStarts> procedures;

    EngineMetricsPlugin(ObjectProvider<MeterRegistry> registry, ObjectProvider<ProcedureStarts> procedures) {
        this.registry = registry;
        this.procedures = procedures;
    }

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        if (configuration.getCustomHistoryEventHandlers() == null) {
            configuration.setCustomHistoryEventHandlers(new ArrayList<>());
        }
        configuration.getCustomHistoryEventHandlers().add(new EngineMetrics(registry, procedures));
    }
}
