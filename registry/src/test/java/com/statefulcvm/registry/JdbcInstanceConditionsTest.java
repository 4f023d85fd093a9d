package com.statefulcvm.registry;

import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.InstanceCondition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcInstanceConditionsTest {

    /** The H2 the application runs on by default; {@link JdbcInstanceConditionsOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private final RegistryDatabase db = database();
    private final RegistryDatabase.MutableClock clock = new RegistryDatabase.MutableClock(T0);
    private final JdbcInstanceConditions conditions = new JdbcInstanceConditions(db.jdbc, db.transactions, clock);

    @Test
    void theTransitionTimeMovesOnlyWhenTheStatusChangesButTheReasonAlwaysFollows() {
        conditions.set("web", 0, ConditionType.Healthy, true, "Healthy");
        assertThat(only()).isEqualTo(new InstanceCondition("web", 0, ConditionType.Healthy, true, "Healthy", T0));

        clock.advance(Duration.ofSeconds(30));
        conditions.set("web", 0, ConditionType.Healthy, true, "Healthy: 200 in 4 ms");
        assertThat(only().lastTransitionTime()).as("same status: no transition").isEqualTo(T0);
        assertThat(only().reason()).isEqualTo("Healthy: 200 in 4 ms");

        clock.advance(Duration.ofSeconds(30));
        conditions.set("web", 0, ConditionType.Healthy, false, "Unhealthy: 503");
        assertThat(only()).isEqualTo(new InstanceCondition("web", 0, ConditionType.Healthy, false, "Unhealthy: 503", T0.plusSeconds(60)));

        clock.advance(Duration.ofSeconds(5));
        conditions.set("web", 0, ConditionType.Healthy, true, "Healthy");
        assertThat(only().lastTransitionTime()).isEqualTo(T0.plusSeconds(65));
        assertThat(only().status()).isTrue();
    }

    @Test
    void conditionsAreKeptPerSlotAndTypeInOrderAndForgottenWithTheSlot() {
        conditions.set("web", 1, ConditionType.Ready, false, "waiting: min ready");
        conditions.set("web", 1, ConditionType.Running, true, "running");
        conditions.set("web", 0, ConditionType.Programmed, true, "compose accepted");
        conditions.set("db", 0, ConditionType.Running, false, "stopped");

        assertThat(conditions.conditions("web")).extracting(c -> c.ordinal() + ":" + c.type())
                .containsExactly("0:Programmed", "1:Running", "1:Ready");
        assertThat(conditions.conditions("web", 1)).extracting(InstanceCondition::type).containsExactly(ConditionType.Running, ConditionType.Ready);

        conditions.forget("web", 1);
        assertThat(conditions.conditions("web")).extracting(InstanceCondition::ordinal).containsExactly(0);
        assertThat(conditions.conditions("db")).hasSize(1);
    }

    @Test
    void aLongReasonIsShortenedNotRefused() {
        conditions.set("web", 0, ConditionType.Ready, false, "x".repeat(5000));
        assertThat(only().reason()).hasSize(1000).endsWith("...");
    }

    private InstanceCondition only() {
        assertThat(conditions.conditions("web")).hasSize(1);
        return conditions.conditions("web").get(0);
    }
}
