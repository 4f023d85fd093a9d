package com.statefulcvm.registry;

import com.statefulcvm.workloads.TestPostgres;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcProcedureLockTest} on the tests' PostgreSQL server (skipped without one). */
class JdbcProcedureLockOnPostgresTest extends JdbcProcedureLockTest {

    @BeforeAll
    static void requirePostgres() {
        TestPostgres.requireServer();
    }

    @Override
    RegistryDatabase database() {
        return RegistryDatabase.postgres();
    }
}
