package com.statefulcvm.simulator.cloud;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;

import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.AttestationInfo.EventLogEntry;

/**
 * A plausible attestation: placeholder measurements (no real TDX quote) but a dstack runtime event log whose
 * app-id, compose-hash, instance-id, os-image-hash, key-provider and storage-fs events carry the CVM's real values,
 * with digests and RTMR3 computed as dstack does.
 */
final class AttestationBuilder {

    /** dstack runtime events: {@code imr} 3, this event type. */
    static final long DSTACK_EVENT_TYPE = 0x08000001L;
    static final String KMS_PUBLIC_KEY = ComposeHasher.sha256Hex("simulated-kms".getBytes(StandardCharsets.UTF_8));

    private static final HexFormat HEX = HexFormat.of();

    private AttestationBuilder() {
    }

    static AttestationInfo build(SimulatedCvm cvm) {
        boolean online = CvmLifecycle.RUNNING.equals(cvm.status) && cvm.instanceId != null;
        if (!online) {
            return new AttestationInfo(cvm.name, false, true, "CVM is not running", List.of(), null,
                    new LinkedHashMap<>(cvm.composeFile));
        }
        List<EventLogEntry> log = new ArrayList<>();
        // boot-time measurements (RTMR0..2): placeholders, one event each
        log.add(bootEvent(0, "vm-config:" + cvm.instanceType));
        log.add(bootEvent(1, "kernel:" + CvmViews.OS_IMAGE_HASH));
        log.add(bootEvent(2, "cmdline:" + CvmViews.OS_IMAGE_HASH));
        // dstack runtime events (RTMR3)
        log.add(runtimeEvent("system-preparing", new byte[0]));
        log.add(runtimeEvent("app-id", HEX.parseHex(cvm.appId)));
        log.add(runtimeEvent("compose-hash", HEX.parseHex(cvm.composeHash)));
        log.add(runtimeEvent("instance-id", HEX.parseHex(cvm.instanceId)));
        log.add(runtimeEvent("boot-mr-done", new byte[0]));
        log.add(runtimeEvent("os-image-hash", HEX.parseHex(CvmViews.OS_IMAGE_HASH)));
        log.add(runtimeEvent("key-provider",
                ("{\"name\":\"kms\",\"id\":\"" + KMS_PUBLIC_KEY + "\"}").getBytes(StandardCharsets.UTF_8)));
        log.add(runtimeEvent("storage-fs", String.valueOf(cvm.storageFs).getBytes(StandardCharsets.UTF_8)));
        log.add(runtimeEvent("system-ready", new byte[0]));

        AttestationInfo.TcbInfo tcb = new AttestationInfo.TcbInfo(
                sha384Hex("mrtd:" + CvmViews.OS_IMAGE_HASH),
                sha384Hex("rootfs:" + CvmViews.OS_IMAGE_HASH),
                rtmr(log, 0), rtmr(log, 1), rtmr(log, 2), rtmr(log, 3),
                log, ComposeHasher.canonicalJson(cvm.composeFile));
        return new AttestationInfo(cvm.name, true, true, null, List.of(), tcb, new LinkedHashMap<>(cvm.composeFile));
    }

    /** {@code digest = SHA-384(le32(event_type) || ":" || event || ":" || payload)}. */
    static EventLogEntry runtimeEvent(String event, byte[] payload) {
        byte[] type = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) DSTACK_EVENT_TYPE).array();
        byte[] colon = {':'};
        byte[] digest = ComposeHasher.digest("SHA-384", type, colon, event.getBytes(StandardCharsets.UTF_8), colon,
                payload);
        return new EventLogEntry(3, DSTACK_EVENT_TYPE, HEX.formatHex(digest), event, HEX.formatHex(payload));
    }

    private static EventLogEntry bootEvent(int imr, String seed) {
        return new EventLogEntry(imr, 0x80000001L, sha384Hex(seed), "", "");
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

    private static String sha384Hex(String seed) {
        return HEX.formatHex(ComposeHasher.digest("SHA-384", seed.getBytes(StandardCharsets.UTF_8)));
    }
}
