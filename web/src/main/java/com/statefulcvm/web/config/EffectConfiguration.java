package com.statefulcvm.web.config;

import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.registry.JdbcEffectIntentRegistry;
import com.zaxxer.hikari.HikariDataSource;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Exactly-once effects: the intents' own small connection pool (on the same database as everything else) and the
 * in-flight guard. Not a {@code DataSource} bean, so Spring Boot's own datasource stays the only one it knows.
 */
@Configuration
public class EffectConfiguration {

    /** The pool the intents are written through, in auto-commit; closed with the context. */
    public record EffectIntentPool(HikariDataSource dataSource) implements AutoCloseable {
        @Override
        public void close() {
            dataSource.close();
        }
    }

    @Bean
    public EffectIntentPool effectIntentPool(DataSourceProperties dataSource, OrchestratorProperties properties,
                                             CamundaBpmProperties camunda) {
        HikariDataSource pool = dataSource.initializeDataSourceBuilder().type(HikariDataSource.class).build();
        pool.setPoolName("orchestrator-effects");
        pool.setMaximumPoolSize(poolSize(properties, camunda));
        pool.setMinimumIdle(0);
        pool.setAutoCommit(true);
        pool.setConnectionTimeout(10_000);
        return new EffectIntentPool(pool);
    }

    /**
     * Unless set, one connection per thread that reads or writes intents while it holds its engine connection: every
     * job executor thread (apply, fallback polls) and every step waker thread (a woken step checks its CVM). Fewer,
     * and those threads queue for them while their engine transactions stay open: with 3 for 24 threads, 50 rollouts
     * at once waited 0.7 s on average per intent (JFR, issue 23). Opened on demand, closed when idle.
     */
    static int poolSize(OrchestratorProperties properties, CamundaBpmProperties camunda) {
        Integer set = properties.getEffects().getPoolSize();
        return set != null ? set : camunda.getJobExecution().getMaxPoolSize() + properties.getRollout().getWakerThreads();
    }

    @Bean
    public EffectIntentRegistry effectIntentRegistry(EffectIntentPool pool) {
        return new JdbcEffectIntentRegistry(pool.dataSource());
    }

    @Bean
    public EffectSettings effectSettings(OrchestratorProperties properties) {
        return new EffectSettings(properties.getEffects().getInFlightGuard());
    }
}
