package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.scaling.ScaleRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * What a round costs in Phala calls: a set whose CVMs the status batch vouches for costs none of its own; anything the
 * batch shows differently, an empty slot, a failed batch or every fullListEvery-th round lists the set, once.
 */
class CvmSightingsTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private ReplicaSetSpec spec;
    private CvmSightings sightings;

    @BeforeEach
    void setUp() {
        spec = new ReplicaSetSpec();
        spec.setName("web");
        spec.setReplicas(2);
        spec.setAppId("a".repeat(40));
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(spec));
        sightings = new CvmSightings(phala, new ReplicaSets(fleet, mock(InstanceRegistry.class), mock(ScaleRegistry.class)), 3);
        when(phala.listAppCvms(any())).thenReturn(List.of(cvm(0, "running"), cvm(1, "running")));
    }

    private static CvmInfo cvm(int ordinal, String status) {
        return new CvmInfo("id-" + ordinal, "web-" + ordinal, "a".repeat(40), "vm-" + ordinal, "inst-" + ordinal, status, false, null,
                "hash", null, null, null, null, new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    private static BatchStatus status(int ordinal, String status, String uptime, boolean inProgress) {
        return new BatchStatus("vm-" + ordinal, status, uptime, inProgress, null, null, null, null, null);
    }

    private static CvmSightings.Statuses batch(BatchStatus... statuses) {
        Map<String, BatchStatus> byVm = new HashMap<>();
        for (BatchStatus s : statuses) {
            byVm.put(s.vmUuid(), s);
        }
        return new CvmSightings.Statuses(byVm, false, 1);
    }

    /** The set as listed in an earlier round, both CVMs up since an hour before NOW. */
    private CvmSightings.LastSeen listedBefore(int roundsSinceList) {
        return new CvmSightings.LastSeen(Map.of(0, cvm(0, "running"), 1, cvm(1, "running")),
                Map.of(0, NOW.minusSeconds(3600), 1, NOW.minusSeconds(3600)), roundsSinceList);
    }

    @Test
    void aSetNotListedYetIsListedAndItsBootsComeFromTheBatch() {
        CvmSightings.Sighting seen = sightings.sight(spec, null, batch(status(0, "running", "1h", false)), 6, NOW);
        assertThat(seen.listed()).isTrue();
        assertThat(seen.cvms()).containsOnlyKeys(0, 1);
        assertThat(seen.boots()).containsExactly(Map.entry(0, NOW.minusSeconds(3600)));
        assertThat(seen.remembered(null).roundsSinceList()).isZero();
    }

    @Test
    void aSetWhoseCvmsAnswerTheBatchAsListedCostsNoCallOfItsOwn() {
        CvmSightings.Sighting seen = sightings.sight(spec, listedBefore(0),
                batch(status(0, "running", "1h", false), status(1, "running", "3600", false)), 6, NOW);
        assertThat(seen.listed()).isFalse();
        assertThat(seen.cvms().get(1).instanceId()).isEqualTo("inst-1");
        assertThat(seen.remembered(listedBefore(0)).roundsSinceList()).isEqualTo(1);
        verify(phala, never()).listAppCvms(any());
    }

    @Test
    void anyDifferenceListsTheSet() {
        CvmSightings.LastSeen last = listedBefore(0);
        assertThat(sightings.sight(spec, last, batch(status(0, "running", "1h", false), status(1, "stopped", null, false)), 6, NOW)
                .listed()).as("a crash").isTrue();
        assertThat(sightings.sight(spec, last, batch(status(0, "running", "1h", false), status(1, "running", "1h", true)), 6, NOW)
                .listed()).as("an operation under way").isTrue();
        assertThat(sightings.sight(spec, last, batch(status(0, "running", "1h", false), status(1, "running", "5s", false)), 6, NOW)
                .listed()).as("a restart too quick to be seen as a status: a new boot").isTrue();
        assertThat(sightings.sight(spec, last, batch(status(0, "running", "1h", false)), 6, NOW)
                .listed()).as("a CVM gone").isTrue();
        verify(phala, times(4)).listAppCvms(any());
    }

    @Test
    void anEmptySlotAFailedBatchAndEverySixthRoundListTheSet() {
        CvmSightings.LastSeen oneMissing = new CvmSightings.LastSeen(Map.of(0, cvm(0, "running")), Map.of(), 0);
        CvmSightings.Statuses both = batch(status(0, "running", "1h", false), status(1, "running", "1h", false));
        assertThat(sightings.sight(spec, oneMissing, both, 6, NOW).listed()).isTrue();
        assertThat(sightings.sight(spec, listedBefore(0), new CvmSightings.Statuses(Map.of(), true, 1), 6, NOW).listed()).isTrue();
        assertThat(sightings.sight(spec, listedBefore(4), both, 6, NOW).listed()).isFalse();
        assertThat(sightings.sight(spec, listedBefore(5), both, 6, NOW).listed()).isTrue();
    }

    @Test
    void aSetThatCannotBeListedIsUnreadableAndRemembersWhatItKnew() {
        when(phala.listAppCvms(any())).thenThrow(new PhalaApiException(503, null, "down", null, "GET", "/apps/x/cvms", null));
        CvmSightings.Sighting seen = sightings.sight(spec, null, CvmSightings.Statuses.NONE, 6, NOW);
        assertThat(seen.cvms()).isNull();
        assertThat(seen.unreadable()).isNotBlank();
        CvmSightings.LastSeen last = listedBefore(2);
        assertThat(seen.remembered(last)).isSameAs(last);
    }

    @Test
    void theBatchIsSplitIntoCallsOfAtMostTheBatchSizeAndAFailedCallIsSaid() {
        when(phala.statusBatch(anyList())).thenAnswer(call -> {
            List<String> asked = call.getArgument(0);
            if (asked.contains("vm-6")) {
                throw new PhalaApiException(502, null, "bad gateway", null, "POST", "/status/batch", null);
            }
            Map<String, BatchStatus> answer = new HashMap<>();
            asked.forEach(vm -> answer.put(vm, new BatchStatus(vm, "running", "1h", false, null, null, null, null, null)));
            return answer;
        });
        CvmSightings.Statuses statuses = sightings.statuses(List.of("vm-0", "vm-1", "vm-2", "vm-3", "vm-4", "vm-5", "vm-6"));
        assertThat(statuses.calls()).isEqualTo(3);
        assertThat(statuses.failed()).isTrue();
        assertThat(statuses.byVmUuid()).containsOnlyKeys("vm-0", "vm-1", "vm-2", "vm-3", "vm-4", "vm-5");
        assertThat(sightings.statuses(List.of()).calls()).isZero();
    }
}
