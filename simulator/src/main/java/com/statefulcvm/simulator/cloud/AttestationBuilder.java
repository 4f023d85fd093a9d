package com.statefulcvm.simulator.cloud;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;

import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.AttestationInfo.EventLogEntry;
import com.statefulcvm.simulator.evidence.AttestedCvm;
import com.statefulcvm.simulator.evidence.CvmMeasurements;
import com.statefulcvm.simulator.evidence.DstackEventLog;
import com.statefulcvm.simulator.evidence.EvidenceTamper;

/**
 * The CVM's attestation as the cloud shows it: the same event log and measurements (MRTD, RTMR0..3) its guest agent's
 * {@code GetQuote} carries for honest evidence ({@link CvmMeasurements}), so RTMR3 is the replay of the runtime events
 * that carry the CVM's real app-id, compose-hash and instance-id. The root-fs hash is a placeholder. Evidence faults
 * injected through the admin endpoint change only what {@code GetQuote} hands out, never this view.
 */
final class AttestationBuilder {

    /** dstack runtime events: {@code imr} 3, this event type. */
    static final long DSTACK_EVENT_TYPE = DstackEventLog.DSTACK_EVENT_TYPE;

    private static final HexFormat HEX = HexFormat.of();

    private AttestationBuilder() {
    }

    static AttestationInfo build(SimulatedCvm cvm) {
        boolean online = CvmLifecycle.RUNNING.equals(cvm.status) && cvm.instanceId != null;
        if (!online) {
            return new AttestationInfo(cvm.name, false, true, "CVM is not running", List.of(), null,
                    new LinkedHashMap<>(cvm.composeFile));
        }
        CvmMeasurements measurements = CvmMeasurements.of(
                new AttestedCvm(cvm.appId, cvm.composeHash, cvm.instanceId, CvmViews.OS_IMAGE_HASH, cvm.storageFs),
                EvidenceTamper.NONE);
        List<EventLogEntry> log = measurements.eventLog().events().stream().map(AttestationBuilder::entry).toList();
        AttestationInfo.TcbInfo tcb = new AttestationInfo.TcbInfo(
                measurements.mrTdHex(),
                sha384Hex("rootfs:" + CvmViews.OS_IMAGE_HASH),
                measurements.rtmrHex(0), measurements.rtmrHex(1), measurements.rtmrHex(2), measurements.rtmrHex(3),
                log, ComposeHasher.canonicalJson(cvm.composeFile));
        return new AttestationInfo(cvm.name, true, true, null, List.of(), tcb, new LinkedHashMap<>(cvm.composeFile));
    }

    /** {@code digest = SHA-384(le32(event_type) || ":" || event || ":" || payload)}. */
    static EventLogEntry runtimeEvent(String event, byte[] payload) {
        return entry(DstackEventLog.runtimeEvent(event, payload));
    }

    /** RTMR = fold of {@code SHA-384(mr || digest)} over the register's events, from 48 zero bytes. */
    static String rtmr(List<EventLogEntry> log, int imr) {
        byte[] mr = new byte[48];
        for (EventLogEntry entry : log) {
            if (entry.imr() == imr) {
                mr = ComposeHasher.digest("SHA-384", mr, HEX.parseHex(entry.digest()));
            }
        }
        return HEX.formatHex(mr);
    }

    private static EventLogEntry entry(DstackEventLog.Event event) {
        return new EventLogEntry(event.imr(), event.eventType(), event.digest(), event.event(), event.eventPayload());
    }

    private static String sha384Hex(String seed) {
        return HEX.formatHex(ComposeHasher.digest("SHA-384", seed.getBytes(StandardCharsets.UTF_8)));
    }
}
