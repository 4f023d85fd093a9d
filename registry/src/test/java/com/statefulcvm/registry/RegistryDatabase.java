package com.statefulcvm.registry;

import com.statefulcvm.workloads.TestPostgres;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * A fresh database with our migrations, as the application runs them; no Spring context needed: an in-memory H2 (the
 * default database) or a fresh schema of the tests' PostgreSQL server ({@link TestPostgres}; the production database,
 * whose transaction rules differ: any error aborts the transaction). Each registry test runs on both; the PostgreSQL
 * variant is skipped when no server is configured.
 */
public final class RegistryDatabase {

    public final DataSource dataSource;
    public final JdbcTemplate jdbc;
    public final DataSourceTransactionManager transactions;

    private RegistryDatabase(DataSource dataSource) {
        this.dataSource = dataSource;
        Flyway.configure().dataSource(dataSource).table("orch_flyway_history").locations("classpath:db/migration").load().migrate();
        jdbc = new JdbcTemplate(dataSource);
        transactions = new DataSourceTransactionManager(dataSource);
    }

    public static RegistryDatabase h2() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:registry-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        h2.setUser("sa");
        return new RegistryDatabase(h2);
    }

    /** Call {@link TestPostgres#requireServer()} in a {@code @BeforeAll} first, so that the class is skipped without one. */
    public static RegistryDatabase postgres() {
        TestPostgres server = TestPostgres.requireServer();
        String schema = "t_" + UUID.randomUUID().toString().replace("-", "");
        new JdbcTemplate(postgres(server, null)).execute("CREATE SCHEMA " + schema);
        return new RegistryDatabase(postgres(server, schema));
    }

    private static PGSimpleDataSource postgres(TestPostgres server, String schema) {
        PGSimpleDataSource pg = new PGSimpleDataSource();
        pg.setUrl(server.url);
        pg.setUser(server.user);
        pg.setPassword(server.password);
        if (schema != null) {
            pg.setCurrentSchema(schema);
        }
        return pg;
    }

    /**
     * Another way into the same database, as the intents' own pool is (EffectConfiguration): its connections join no
     * transaction of {@link #transactions}.
     */
    DataSource second() {
        if (dataSource instanceof JdbcDataSource h2) {
            JdbcDataSource other = new JdbcDataSource();
            other.setURL(h2.getURL());
            other.setUser(h2.getUser());
            return other;
        }
        PGSimpleDataSource pg = (PGSimpleDataSource) dataSource;
        PGSimpleDataSource other = new PGSimpleDataSource();
        other.setUrl(pg.getUrl());
        other.setUser(pg.getUser());
        other.setPassword(pg.getPassword());
        other.setCurrentSchema(pg.getCurrentSchema());
        return other;
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {

        private Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
