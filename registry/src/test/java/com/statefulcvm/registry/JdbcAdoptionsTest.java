package com.statefulcvm.registry;

import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.adoption.Adoption;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Adoptions (V28) on a real database: a set is adopted once, and only a set that names an app made elsewhere waits for it. */
class JdbcAdoptionsTest {

    /** The H2 the application runs on by default; {@link JdbcAdoptionsOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final JdbcAdoptions adoptions = new JdbcAdoptions(db.jdbc, db.transactions);
    private final Instant at = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void aSetNamingAnAppMadeElsewhereWaitsUntilItsFirstAdoptionWhichStays() {
        ReplicaSetSpec db1 = spec("adopt-db", "0123456789abcdef0123456789abcdef01234567");
        ReplicaSetSpec own = spec("own-db", null);
        assertThat(adoptions.awaitsAdoption(db1)).isTrue();
        assertThat(adoptions.awaitsAdoption(own)).as("an app this deployment created needs no adoption").isFalse();

        adoptions.record(new Adoption("adopt-db", db1.getAppId(), 1, "bob", at, "3 slots", Map.of(0, 1, 1, 1, 2, 2)));
        adoptions.record(new Adoption("adopt-db", db1.getAppId(), 4, "carol", at.plusSeconds(60), "again", Map.of()));

        assertThat(adoptions.awaitsAdoption(db1)).isFalse();
        Adoption adopted = adoptions.adoption("adopt-db").orElseThrow();
        assertThat(adopted.adoptedBy()).isEqualTo("bob");
        assertThat(adopted.revision()).isEqualTo(1);
        assertThat(adopted.adoptedAt()).isEqualTo(at);
        assertThat(adopted.otherRevisionOf(2)).contains(2);
        assertThat(adopted.otherRevisionOf(0)).isEmpty();
        assertThat(adopted.otherRevisionOf(5)).isEmpty();
    }

    private static ReplicaSetSpec spec(String name, String appId) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName(name);
        spec.setAppId(appId);
        return spec;
    }
}
