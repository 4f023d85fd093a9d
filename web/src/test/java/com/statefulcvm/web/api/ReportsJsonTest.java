package com.statefulcvm.web.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reports' JSON, field by field, as our API writes it (Spring's object mapper): the typed records keep the shape
 * the untyped maps had, which the fleet page, the Cockpit plugins and scripts read. A detail or an optional field the
 * procedure has no value for is left out; {@code result}, {@code stage}, {@code endedAt} are there as {@code null}.
 */
class ReportsJsonTest {

    /** As application.yaml configures it (spring.jackson.serialization.write-dates-as-timestamps: false). */
    private static final ObjectMapper JSON = Jackson2ObjectMapperBuilder.json()
            .featuresToDisable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
    private static final Instant STARTED = Instant.parse("2026-01-02T03:04:05Z");

    @Test
    void aRunningHealShowsItsDetailsInPlaceAndItsResultAsNull() throws Exception {
        Reports.Procedure heal = new Reports.Procedure("heal", "p1", "web", "running", STARTED, null, "admin", null,
                new Reports.HealDetails("web-0", 0, "operator", "requested by admin", null), null, null, null,
                List.of(new Reports.ActivityStep("Restart web-0", "Task_Restart", STARTED, null, null, null, null)),
                List.of(), List.of(), List.of("waiting: Restart web-0"));
        assertThat(JSON.writeValueAsString(heal)).isEqualTo("{\"kind\":\"heal\",\"processInstanceId\":\"p1\",\"replicaSet\":\"web\","
                + "\"state\":\"running\",\"startedAt\":\"2026-01-02T03:04:05Z\",\"endedAt\":null,\"requestedBy\":\"admin\","
                + "\"slot\":\"web-0\",\"ordinal\":0,\"trigger\":\"operator\",\"reason\":\"requested by admin\","
                + "\"result\":null,\"outcome\":null,\"stage\":null,"
                + "\"steps\":[{\"step\":\"Restart web-0\",\"activityId\":\"Task_Restart\",\"startedAt\":\"2026-01-02T03:04:05Z\",\"endedAt\":null}],"
                + "\"approvedBy\":[],\"approvals\":[],\"blockers\":[\"waiting: Restart web-0\"]}");
    }

    @Test
    void aRolloutShowsItsOwnFieldsAndLeavesOutWhatItHasNot() throws Exception {
        Reports.Rollout rollout = new Reports.Rollout("rollout", "r1", "web", "completed", STARTED, STARTED, "admin", "caller",
                3, null, null, null, "1", null, null, null, null, null, "completed", null, false, null, List.of(), List.of("boss"),
                List.of(new Reports.Approval("Approve", "Task_Approve", "approved", "boss", STARTED, null, null)),
                List.of(), List.of(new Reports.RollbackStarted("r2", "running", STARTED, null)));
        assertThat(JSON.writeValueAsString(rollout)).isEqualTo("{\"kind\":\"rollout\",\"processInstanceId\":\"r1\","
                + "\"replicaSet\":\"web\",\"state\":\"completed\",\"startedAt\":\"2026-01-02T03:04:05Z\","
                + "\"endedAt\":\"2026-01-02T03:04:05Z\",\"requestedBy\":\"admin\",\"calledBy\":\"caller\",\"updateRevision\":3,"
                + "\"targetOrdinals\":\"1\",\"outcome\":\"completed\",\"stage\":null,\"paused\":false,\"steps\":[],"
                + "\"approvedBy\":[\"boss\"],\"approvals\":[{\"task\":\"Approve\",\"taskDefinitionKey\":\"Task_Approve\","
                + "\"decision\":\"approved\",\"by\":\"boss\",\"at\":\"2026-01-02T03:04:05Z\"}],\"blockers\":[],"
                + "\"rollbacks\":[{\"processInstanceId\":\"r2\",\"state\":\"running\",\"startedAt\":\"2026-01-02T03:04:05Z\",\"endedAt\":null}]}");
    }

    @Test
    void aRowHasAResultFieldOnlyForKindsThatRecordOne() throws Exception {
        Reports.Row rollout = new Reports.Row("rollout", "r1", "running", "admin", STARTED, null, null, null, null, null, "/api/rollouts/r1");
        Reports.Row heal = new Reports.Row("heal", "h1", "running", "admin", STARTED, null, Optional.empty(), null, "web-0", null, "/api/heals/h1");
        assertThat(JSON.writeValueAsString(rollout)).isEqualTo("{\"kind\":\"rollout\",\"processInstanceId\":\"r1\",\"state\":\"running\","
                + "\"requestedBy\":\"admin\",\"startedAt\":\"2026-01-02T03:04:05Z\",\"endedAt\":null,\"outcome\":null,\"report\":\"/api/rollouts/r1\"}");
        assertThat(JSON.writeValueAsString(heal)).isEqualTo("{\"kind\":\"heal\",\"processInstanceId\":\"h1\",\"state\":\"running\","
                + "\"requestedBy\":\"admin\",\"startedAt\":\"2026-01-02T03:04:05Z\",\"endedAt\":null,\"result\":null,\"outcome\":null,"
                + "\"slot\":\"web-0\",\"report\":\"/api/heals/h1\"}");
    }
}
