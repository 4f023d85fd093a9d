package com.statefulcvm.web.engine;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * On H2 only: indexes on the engine's variable table that let H2 find an execution's variables by its id. The engine
 * loads them with {@code EXECUTION_ID_ = ? AND TASK_ID_ IS NULL} (and a process instance's with {@code PROC_INST_ID_});
 * H2's planner, without statistics that tell it otherwise (a fresh or in-memory database), takes the index on
 * {@code TASK_ID_} for {@code IS NULL}, which every process variable matches: each load read every variable of every
 * running procedure. With 50 rollouts at once that query was a third of the step waker's CPU (JFR, issue 23); an index
 * holding both columns of the condition is the one H2 picks. PostgreSQL's planner chooses by its statistics and needs
 * nothing. {@code IF NOT EXISTS}: a file database keeps them from one start to the next.
 */
@Component
class H2VariableIndexes extends AbstractProcessEnginePlugin {

    private static final Logger log = LoggerFactory.getLogger(H2VariableIndexes.class);

    @Override
    public void postProcessEngineBuild(ProcessEngine engine) {
        ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        if (!"h2".equals(configuration.getDatabaseType())) {
            return;
        }
        String table = configuration.getDatabaseTablePrefix() + "ACT_RU_VARIABLE";
        List<String> statements = List.of(
                "CREATE INDEX IF NOT EXISTS ORCH_IDX_VARIABLE_EXECUTION ON " + table + "(EXECUTION_ID_, TASK_ID_)",
                "CREATE INDEX IF NOT EXISTS ORCH_IDX_VARIABLE_PROCESS ON " + table + "(PROC_INST_ID_, TASK_ID_)");
        try (Connection connection = configuration.getDataSource().getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            // slower variable loads, nothing wrong: the engine works without them
            log.warn("Could not create the H2 indexes on {}: {}", table, e.getMessage());
        }
    }
}
