package com.statefulcvm.registry;

import com.statefulcvm.workloads.TestPostgres;
import org.junit.jupiter.api.BeforeAll;

/** {@link JdbcAdoptionsTest} on the tests' PostgreSQL server (skipped without one). */
class JdbcAdoptionsOnPostgresTest extends JdbcAdoptionsTest {

    @BeforeAll
    static void requirePostgres() {
        TestPostgres.requireServer();
    }

    @Override
    RegistryDatabase database() {
        return RegistryDatabase.postgres();
    }
}
