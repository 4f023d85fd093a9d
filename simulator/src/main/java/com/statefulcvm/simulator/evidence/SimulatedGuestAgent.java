package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.hex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.padded;

import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.simulator.cloud.ApiException;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.SimulatedCloud;

/**
 * The dstack guest agent of every simulated CVM, reached through the gateway on port {@value #PORT}: its
 * {@code GetQuote} answers {@code {quote, event_log, report_data, vm_config}} with a {@link SyntheticQuote} over the
 * CVM's {@link CvmMeasurements} and the caller's report_data, signed by the CVM's own attestation key. Also keeps the
 * evidence faults injected per CVM ({@link EvidenceTamper}, sticky, in memory only).
 */
public final class SimulatedGuestAgent {

    /** The port of the guest agent behind the gateway ({@code <instance_id>-8090}). */
    public static final int PORT = 8090;

    private static final Pattern TARGET = Pattern.compile("^([0-9a-fA-F]{40})-(\\d{1,5})[sg]?$");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SimulatedCloud cloud;
    private final SimulatedTdxAuthority authority;
    /** By vm_uuid: made on the first quote, kept for the CVM's life in this simulator run. */
    private final Map<String, SyntheticQuote.AttestationKey> attestationKeys = new ConcurrentHashMap<>();
    /** By vm_uuid; absent means {@link EvidenceTamper#NONE}. */
    private final Map<String, EvidenceTamper> tampers = new ConcurrentHashMap<>();

    public SimulatedGuestAgent(SimulatedCloud cloud, SimulatedTdxAuthority authority) {
        this.cloud = cloud;
        this.authority = authority;
    }

    /** True when a gateway target ({@code <id>-<port>[s|g]}) names the guest agent's port. */
    public static boolean isGuestAgent(String target) {
        Matcher m = TARGET.matcher(target == null ? "" : target);
        return m.matches() && Integer.parseInt(m.group(2)) == PORT;
    }

    /**
     * {@code GetQuote} through the gateway: the JSON answer of the CVM behind {@code target} (an instance id, or an
     * app id for any running CVM of the app), or empty when none is running and settled (the gateway's 502).
     *
     * @param reportDataHex at most 64 bytes in hex; shorter is zero-padded as dstack does
     * @throws ApiException 400 naming {@code report_data} when it is missing, not hex or too long
     */
    public Optional<String> getQuote(String target, String reportDataHex) {
        Matcher m = TARGET.matcher(target == null ? "" : target);
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<CvmSnapshot> cvm = reachable(m.group(1).toLowerCase(java.util.Locale.ROOT));
        if (cvm.isEmpty() || tamper(cvm.get().vmUuid()) == EvidenceTamper.NO_AGENT) {
            return Optional.empty();
        }
        return Optional.of(getQuote(cvm.get(), reportData(reportDataHex)));
    }

    /** The GetQuote JSON of a running CVM. */
    public String getQuote(CvmSnapshot cvm, byte[] reportData) {
        EvidenceTamper tamper = tamper(cvm.vmUuid());
        CvmMeasurements measurements = CvmMeasurements.of(attested(cvm), tamper);
        SyntheticQuote.AttestationKey key = attestationKeys.computeIfAbsent(cvm.vmUuid(),
                vmUuid -> SyntheticQuote.newAttestationKey(authority));
        byte[] padded = padded(reportData, 64);
        byte[] quote = SyntheticQuote.build(measurements, padded, key, tamper.breaksSignature());
        ObjectNode answer = JSON.createObjectNode();
        answer.put("quote", hex(quote));
        answer.put("event_log", measurements.eventLog().toJson());
        answer.put("report_data", hex(padded));
        answer.put("vm_config", vmConfig(cvm));
        return answer.toString();
    }

    /** What the CVM measures about itself (honest values; a tamper changes what it claims). */
    public static AttestedCvm attested(CvmSnapshot cvm) {
        return new AttestedCvm(cvm.appId(), cvm.composeHash(), cvm.instanceId(), CvmSnapshot.OS_IMAGE_HASH,
                cvm.storageFs());
    }

    public EvidenceTamper tamper(String vmUuid) {
        return tampers.getOrDefault(vmUuid, EvidenceTamper.NONE);
    }

    public void setTamper(String vmUuid, EvidenceTamper tamper) {
        if (tamper == EvidenceTamper.NONE) {
            tampers.remove(vmUuid);
        } else {
            tampers.put(vmUuid, tamper);
        }
    }

    /** Forgets every injected fault and attestation key (the simulator's reset). */
    public void reset() {
        tampers.clear();
        attestationKeys.clear();
    }

    private Optional<CvmSnapshot> reachable(String id) {
        CvmSnapshot found;
        try {
            // an instance_id first, else the app's first CVM (the simulated cloud resolves both)
            found = cloud.cvm(id);
        } catch (ApiException unknown) {
            return Optional.empty();
        }
        if (id.equals(found.instanceId())) {
            return Optional.of(found).filter(SimulatedGuestAgent::serving);
        }
        try {
            return cloud.appCvms(id).stream().filter(SimulatedGuestAgent::serving).findFirst();
        } catch (ApiException notAnApp) {
            return Optional.empty();
        }
    }

    /** Running, booted and settled: what the gateway routes to. */
    private static boolean serving(CvmSnapshot cvm) {
        return cvm.online() && !cvm.inProgress();
    }

    static byte[] reportData(String reportDataHex) {
        if (reportDataHex == null) {
            throw ApiException.badRequest("report_data is required (at most 64 bytes in hex)");
        }
        String hex = reportDataHex.strip();
        if (hex.startsWith("0x")) {
            hex = hex.substring(2);
        }
        try {
            byte[] bytes = HexFormat.of().parseHex(hex);
            if (bytes.length > 64) {
                throw ApiException.badRequest("report_data is " + bytes.length + " bytes; at most 64 are allowed");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("report_data is not hex: " + e.getMessage());
        }
    }

    private static String vmConfig(CvmSnapshot cvm) {
        ObjectNode config = JSON.createObjectNode();
        config.put("os_image_hash", CvmSnapshot.OS_IMAGE_HASH);
        config.put("cpu_count", cvm.vcpu());
        config.put("memory_size", (long) cvm.memoryGb() << 30);
        config.put("qemu_version", "8.2.2");
        config.put("pci_hole64_size", 0);
        config.put("hugepages", false);
        config.put("num_gpus", 0);
        config.put("num_nvswitches", 0);
        config.put("hotplug_off", false);
        config.put("image", CvmSnapshot.OS_NAME);
        config.put("spec_version", 1);
        return config.toString();
    }
}
