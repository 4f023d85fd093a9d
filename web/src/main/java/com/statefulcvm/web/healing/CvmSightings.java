package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.BootMarker;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What Phala reports of the CVMs of the sets whose round is due, at a bounded cost. One {@code POST /status/batch}
 * (per {@code statusBatchSize} CVMs) answers for every due set at once: each CVM's status, whether an operation runs
 * on it, and its uptime (when its current boot began, the admission's boot marker). A set whose CVMs all answer
 * exactly as they were last listed (same status, settled, same boot) needs no call of its own: its round uses the
 * last list. Any difference (a crash, an update, a restart behind our back, a CVM gone), an empty slot, a set not
 * listed yet on this node, a failed batch or every {@code fullListEvery}-th round lists the set's CVMs
 * ({@code listAppCvms}): at most one call per set per round besides its share of the batch.
 */
class CvmSightings {

    private final PhalaCloudClient phala;
    private final ReplicaSets replicaSets;
    private final int batchSize;

    CvmSightings(PhalaCloudClient phala, ReplicaSets replicaSets, int batchSize) {
        this.phala = phala;
        this.replicaSets = replicaSets;
        this.batchSize = batchSize;
    }

    /** The batch's answer for the due sets' CVMs; {@code failed} when a call failed (its CVMs are then absent). */
    record Statuses(Map<String, BatchStatus> byVmUuid, boolean failed, int calls) {

        static final Statuses NONE = new Statuses(Map.of(), false, 0);
    }

    /**
     * What the last list of a set said, remembered between rounds by the node that monitors it.
     *
     * @param boots when each running CVM's boot began, as last seen
     */
    record LastSeen(Map<Integer, CvmInfo> cvms, Map<Integer, Instant> boots, int roundsSinceList) {
    }

    /**
     * What a round sees of its set.
     *
     * @param cvms       by ordinal (an empty slot is absent); null when the set could not be read
     * @param boots      when each running CVM's current boot began, where the batch said
     * @param listed     true when this round listed the set (a Phala call of its own)
     * @param unreadable why the set could not be read, or null
     */
    record Sighting(Map<Integer, CvmInfo> cvms, Map<Integer, Instant> boots, boolean listed, String unreadable) {

        LastSeen remembered(LastSeen before) {
            if (cvms == null) {
                return before;
            }
            return new LastSeen(cvms, boots, listed ? 0 : (before == null ? 0 : before.roundsSinceList()) + 1);
        }
    }

    /** The status of every given CVM, in calls of at most {@code batchSize}; a failed call leaves its CVMs out. */
    Statuses statuses(Collection<String> vmUuids) {
        if (vmUuids.isEmpty()) {
            return Statuses.NONE;
        }
        List<String> all = new ArrayList<>(vmUuids);
        Map<String, BatchStatus> answer = new HashMap<>();
        boolean failed = false;
        int calls = 0;
        for (int from = 0; from < all.size(); from += batchSize) {
            calls++;
            try {
                answer.putAll(phala.statusBatch(all.subList(from, Math.min(all.size(), from + batchSize))));
            } catch (PhalaApiException | IllegalStateException e) {
                failed = true;
            }
        }
        return new Statuses(answer, failed, calls);
    }

    /**
     * @param last      the set's last list on this node, or null
     * @param fullEvery list the set at least every this many rounds
     */
    Sighting sight(ReplicaSetSpec spec, LastSeen last, Statuses statuses, int fullEvery, Instant now) {
        if (last != null && !statuses.failed() && last.roundsSinceList() + 1 < fullEvery && unchanged(spec, last, statuses, now)) {
            return new Sighting(last.cvms(), boots(last.cvms(), statuses, now), false, null);
        }
        Map<Integer, CvmInfo> listed = new HashMap<>();
        try {
            for (CvmInfo cvm : SetCvms.asSlots(spec, phala.listAppCvms(replicaSets.appId(spec)))) {
                Slots.ordinalOf(spec.getName(), cvm.name()).ifPresent(o -> listed.put(o, cvm));
            }
        } catch (PhalaApiException | IllegalStateException e) {
            // Not knowing is not a failure of any instance: nothing is counted, the next round tries again.
            return new Sighting(null, Map.of(), true, e.getMessage());
        }
        return new Sighting(listed, boots(listed, statuses, now), true, null);
    }

    /** Every slot has a CVM, and each answers the batch as it was listed: same status, settled, the same boot. */
    private static boolean unchanged(ReplicaSetSpec spec, LastSeen last, Statuses statuses, Instant now) {
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            CvmInfo cvm = last.cvms().get(ordinal);
            if (cvm == null || cvm.vmUuid() == null || !cvm.isSettled()) {
                return false;
            }
            BatchStatus status = statuses.byVmUuid().get(cvm.vmUuid());
            if (status == null || !java.util.Objects.equals(cvm.status(), status.status()) || Boolean.TRUE.equals(status.inProgress())) {
                return false;
            }
            Instant before = last.boots().get(ordinal);
            Instant boot = bootOf(status, now);
            if (before != null && boot != null && Duration.between(before, boot).abs().compareTo(BootMarker.TOLERANCE) > 0) {
                return false;
            }
        }
        return true;
    }

    private static Map<Integer, Instant> boots(Map<Integer, CvmInfo> cvms, Statuses statuses, Instant now) {
        Map<Integer, Instant> boots = new HashMap<>();
        cvms.forEach((ordinal, cvm) -> {
            BatchStatus status = cvm.vmUuid() == null ? null : statuses.byVmUuid().get(cvm.vmUuid());
            Instant boot = status == null ? null : bootOf(status, now);
            if (boot != null) {
                boots.put(ordinal, boot);
            }
        });
        return boots;
    }

    private static Instant bootOf(BatchStatus status, Instant now) {
        return CvmInfo.STATUS_RUNNING.equals(status.status()) ? BootMarker.bootedAt(now, status.uptime()).orElse(null) : null;
    }
}
