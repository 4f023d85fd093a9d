package com.statefulcvm.processes;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.StandaloneInMemProcessEngineConfiguration;
import org.camunda.bpm.engine.test.mock.MockExpressionManager;
import org.camunda.spin.plugin.impl.SpinProcessEnginePlugin;

import java.util.List;

/** One in-memory engine for all process tests; delegates are resolved from {@code Mocks}. */
final class TestEngine {

    private static ProcessEngine engine;

    private TestEngine() {
    }

    static synchronized ProcessEngine get() {
        if (engine == null) {
            StandaloneInMemProcessEngineConfiguration cfg = new StandaloneInMemProcessEngineConfiguration();
            cfg.setJdbcUrl("jdbc:h2:mem:process-tests;DB_CLOSE_DELAY=-1");
            cfg.setJobExecutorActivate(false);
            cfg.setExpressionManager(new MockExpressionManager());
            cfg.setHistory("full");
            cfg.setDefaultSerializationFormat("application/json");
            cfg.setProcessEnginePlugins(List.of(new SpinProcessEnginePlugin()));
            engine = cfg.buildProcessEngine();
        }
        return engine;
    }
}
