package com.statefulcvm.registry;

import com.statefulcvm.workloads.TestPostgres;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcEnvRegistryTest} on the tests' PostgreSQL server (skipped without one). */
class JdbcEnvRegistryOnPostgresTest extends JdbcEnvRegistryTest {

    @BeforeAll
    static void requirePostgres() {
        TestPostgres.requireServer();
    }

    @Override
    RegistryDatabase database() {
        return RegistryDatabase.postgres();
    }
}
