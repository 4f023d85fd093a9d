package com.statefulcvm.web.config;

import com.statefulcvm.delegates.support.EffectSettings;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.registry.JdbcEffectIntentRegistry;
import com.zaxxer.hikari.HikariDataSource;
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
    public EffectIntentPool effectIntentPool(DataSourceProperties dataSource, OrchestratorProperties properties) {
        HikariDataSource pool = dataSource.initializeDataSourceBuilder().type(HikariDataSource.class).build();
        pool.setPoolName("orchestrator-effects");
        pool.setMaximumPoolSize(properties.getEffects().getPoolSize());
        pool.setMinimumIdle(0);
        pool.setAutoCommit(true);
        pool.setConnectionTimeout(10_000);
        return new EffectIntentPool(pool);
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
