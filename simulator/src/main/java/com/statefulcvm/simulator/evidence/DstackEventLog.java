package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.hex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.le32;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.sha384;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.unhex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.utf8;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A CVM's event log as the dstack guest agent returns it in {@code GetQuote}: the firmware and kernel events of
 * RTMR0..2 (simulated, with plausible event types and fixed digests) followed by the dstack runtime events of RTMR3
 * (imr 3, event type 0x08000001), whose digests are computed the way dstack 0.5/0.6 computes them (version 1):
 * {@code SHA-384(le32(0x08000001) || ":" || event || ":" || payload)}. Each RTMR is the fold of
 * {@code SHA-384(mr || digest)} over its events, from 48 zero bytes.
 */
public final class DstackEventLog {

    /** The event type of dstack runtime events. */
    public static final long DSTACK_EVENT_TYPE = 0x08000001L;

    /** The RTMR3 events dstack emits, in order. */
    public static final List<String> RUNTIME_EVENTS = List.of("system-preparing", "app-id", "compose-hash",
            "instance-id", "boot-mr-done", "os-image-hash", "key-provider", "storage-fs", "system-ready");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long EV_SEPARATOR = 0x4;
    private static final long EV_EVENT_TAG = 0x6;
    private static final long EV_PLATFORM_CONFIG_FLAGS = 0xa;
    private static final long EV_EFI_VARIABLE_DRIVER_CONFIG = 0x80000001L;
    private static final long EV_EFI_VARIABLE_BOOT = 0x80000002L;
    private static final long EV_EFI_BOOT_SERVICES_APPLICATION = 0x80000003L;
    private static final long EV_EFI_ACTION = 0x80000007L;
    private static final long EV_EFI_PLATFORM_FIRMWARE_BLOB2 = 0x8000000aL;
    private static final long EV_EFI_HANDOFF_TABLES2 = 0x8000000bL;
    private static final String ACPI_DATA = hex(utf8("ACPI DATA"));

    /** One entry, in the JSON field names and encodings of dstack ({@code digest} and payload in hex). */
    public record Event(int imr, long eventType, String digest, String event, String eventPayload) {
    }

    /** The firmware, bootloader and kernel events: the same for every simulated CVM (one OS image). */
    private static final List<Event> BOOT_EVENTS = List.of(
            opaque(0, EV_EFI_HANDOFF_TABLES2, "td-hob"),
            opaque(0, EV_EFI_PLATFORM_FIRMWARE_BLOB2, "cfv-image"),
            opaque(0, EV_EFI_VARIABLE_DRIVER_CONFIG, "SecureBoot"),
            opaque(0, EV_EFI_VARIABLE_DRIVER_CONFIG, "PK"),
            opaque(0, EV_EFI_VARIABLE_DRIVER_CONFIG, "KEK"),
            opaque(0, EV_EFI_VARIABLE_DRIVER_CONFIG, "db"),
            opaque(0, EV_EFI_VARIABLE_DRIVER_CONFIG, "dbx"),
            separator(0),
            new Event(0, EV_PLATFORM_CONFIG_FLAGS, simulatedDigest("acpi-loader"), "acpi-loader", ACPI_DATA),
            new Event(0, EV_PLATFORM_CONFIG_FLAGS, simulatedDigest("acpi-rsdp"), "acpi-rsdp", ACPI_DATA),
            new Event(0, EV_PLATFORM_CONFIG_FLAGS, simulatedDigest("acpi-tables"), "acpi-tables", ACPI_DATA),
            opaque(1, EV_EFI_BOOT_SERVICES_APPLICATION, "bootloader"),
            opaque(0, EV_EFI_VARIABLE_BOOT, "BootOrder"),
            opaque(0, EV_EFI_VARIABLE_BOOT, "Boot0000"),
            action("Calling EFI Application from Boot Option"),
            separator(1),
            opaque(2, EV_EVENT_TAG, "kernel-cmdline"),
            opaque(2, EV_EVENT_TAG, "initrd"),
            action("Exit Boot Services Invocation"),
            action("Exit Boot Services Returned with Success"));

    private final List<Event> events;

    private DstackEventLog(List<Event> events) {
        this.events = List.copyOf(events);
    }

    /** The log of a CVM that booted the simulated image and measured {@code cvm} into RTMR3. */
    public static DstackEventLog of(AttestedCvm cvm) {
        List<Event> events = new ArrayList<>(BOOT_EVENTS);
        events.add(runtimeEvent("system-preparing", new byte[0]));
        events.add(runtimeEvent("app-id", unhex(cvm.appId())));
        events.add(runtimeEvent("compose-hash", unhex(cvm.composeHash())));
        events.add(runtimeEvent("instance-id", unhex(cvm.instanceId())));
        events.add(runtimeEvent("boot-mr-done", new byte[0]));
        events.add(runtimeEvent("os-image-hash", unhex(cvm.osImageHash())));
        events.add(runtimeEvent("key-provider", utf8(keyProviderJson())));
        events.add(runtimeEvent("storage-fs", utf8(cvm.storageFs())));
        events.add(runtimeEvent("system-ready", new byte[0]));
        return new DstackEventLog(events);
    }

    /** A dstack runtime event (imr 3) with its version-1 digest. */
    public static Event runtimeEvent(String event, byte[] payload) {
        return new Event(3, DSTACK_EVENT_TYPE, hex(runtimeDigest(event, payload)), event, hex(payload));
    }

    /** {@code SHA-384(le32(0x08000001) || ":" || event || ":" || payload)}. */
    static byte[] runtimeDigest(String event, byte[] payload) {
        return sha384(le32(DSTACK_EVENT_TYPE), utf8(":"), utf8(event), utf8(":"), payload);
    }

    /** The key-provider event's payload: the simulated KMS and its fixed public key. */
    public static String keyProviderJson() {
        return "{\"name\":\"kms\",\"id\":\"" + SimulatedPlatform.KMS_PUBLIC_KEY + "\"}";
    }

    /** The fixed public key (DER SubjectPublicKeyInfo, hex) of the simulated KMS, the key-provider id. */
    public static String kmsPublicKey() {
        return SimulatedPlatform.KMS_PUBLIC_KEY;
    }

    public List<Event> events() {
        return events;
    }

    /** The register's value: the fold of {@code SHA-384(mr || digest)} over the events of {@code imr}. */
    public byte[] rtmr(int imr) {
        byte[] mr = new byte[48];
        for (Event event : events) {
            if (event.imr() == imr) {
                mr = extend(mr, unhex(event.digest()));
            }
        }
        return mr;
    }

    static byte[] extend(byte[] mr, byte[] digest) {
        return sha384(mr, digest);
    }

    /** The runtime event's payload (hex), or null when the log has no such event. */
    public String payload(String event) {
        return events.stream().filter(e -> e.imr() == 3 && e.event().equals(event)).map(Event::eventPayload)
                .findFirst().orElse(null);
    }

    /**
     * The JSON text of {@code GetQuote}'s {@code event_log}: an array of
     * {@code {"imr", "event_type", "digest", "event", "event_payload"}}, compact, in that field order.
     */
    public String toJson() {
        ArrayNode array = JSON.createArrayNode();
        for (Event event : events) {
            ObjectNode node = array.addObject();
            node.put("imr", event.imr());
            node.put("event_type", event.eventType());
            node.put("digest", event.digest());
            node.put("event", event.event());
            node.put("event_payload", event.eventPayload());
        }
        return array.toString();
    }

    private static Event opaque(int imr, long type, String label) {
        return new Event(imr, type, simulatedDigest(label), "", "");
    }

    private static Event separator(int imr) {
        return new Event(imr, EV_SEPARATOR, hex(sha384(new byte[4])), "", "");
    }

    private static Event action(String action) {
        return new Event(1, EV_EFI_ACTION, hex(sha384(utf8(action))), "", "");
    }

    /** A stand-in for a firmware measurement: fixed per label, obviously the simulator's. */
    private static String simulatedDigest(String label) {
        return hex(sha384(utf8("stateful-cvm-simulator boot measurement: " + label)));
    }
}
