package com.statefulcvm.web.api;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.FenceRegistry;
import com.statefulcvm.fleet.admission.RefusalRegistry;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.budget.Outage;
import com.statefulcvm.fleet.budget.OutageRegistry;
import com.statefulcvm.fleet.drift.EnvRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** The Fleet's conditions never contradict each other: a set whose every replica is ready is in no outage. */
class SetConditionsTest {

    private final OutageRegistry outages = mock(OutageRegistry.class);
    private final SetConditions conditions = new SetConditions(mock(FenceRegistry.class), mock(RefusalRegistry.class), outages,
            mock(Adoptions.class), mock(EnvRegistry.class));

    @Test
    void anOutageTheMonitorHasNotClearedYetIsNotShownBesideEveryReplicaReady() {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("db");
        spec.setReplicas(3);
        when(outages.outage("db")).thenReturn(Optional.of(new Outage("db", Instant.EPOCH, "db-0, db-1 down", "quorum 2 of 3", null)));

        assertThat(status(conditions.of(spec, List.<InstanceRecord>of(), view(3)), "Outage")).as("every replica ready").isFalse();
        assertThat(status(conditions.of(spec, List.<InstanceRecord>of(), view(3)), "Ready")).isTrue();
        assertThat(status(conditions.of(spec, List.<InstanceRecord>of(), view(1)), "Outage")).as("one of three ready").isTrue();
    }

    private static ReplicaSetView view(int ready) {
        return new ReplicaSetView("db", null, "generic", 3, ready, null, null, null, null, null, null, null, null, List.of(), null, null);
    }

    private static boolean status(List<Map<String, Object>> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.get("type"))).map(c -> (Boolean) c.get("status")).findFirst().orElseThrow();
    }
}
