package com.statefulcvm.simulator.cloud;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes immutable snapshots of the simulated state (called under {@link SimulatedCloud}'s lock). What each API
 * version makes of a snapshot is the business of the version mappers, not of this class.
 */
final class CvmViews {

    static final String OS_NAME = "dstack-0.5.3";
    static final String OS_VERSION = "0.5.3";
    static final String OS_IMAGE_HASH = ComposeHasher.sha256Hex(OS_NAME.getBytes(StandardCharsets.UTF_8));

    /** Host ports published in a docker compose ({@code - "8080:80"}, {@code - 127.0.0.1:8080:80/tcp}). */
    private static final Pattern PORT = Pattern.compile(
            "^\\s*-\\s*[\"']?(?:[0-9.]+:)?(\\d{1,5}):\\d{1,5}(?:/(?:tcp|udp))?[\"']?\\s*$", Pattern.MULTILINE);

    private final Supplier<String> baseDomain;
    private final Clock clock;

    CvmViews(Supplier<String> baseDomain, Clock clock) {
        this.baseDomain = baseDomain;
        this.clock = clock;
    }

    CvmSnapshot snapshot(SimulatedCvm cvm, String envPubkey) {
        Operation op = cvm.operation;
        Instant now = now();
        int[] size = size(cvm.instanceType);
        return new CvmSnapshot(
                cvm.seq, cvm.id, cvm.name, cvm.appId, cvm.vmUuid, cvm.instanceId, cvm.status,
                op == null ? null : new CvmSnapshot.Op(op.type.wireName(), op.target, op.startedAt, op.correlationId),
                cvm.composeHash, cvm.composeFile,
                cvm.instanceType, size[0], size[1], cvm.diskSize,
                cvm.nodeId, "sim-node-" + cvm.nodeId, cvm.region,
                cvm.storageFs, cvm.internalIp, envPubkey,
                baseDomain.get(), urls(cvm),
                cvm.createdAt, cvm.updatedAt, cvm.exitedAt,
                uptimeSeconds(cvm, now), uptime(cvm, now), bootProgress(cvm), shutdownProgress(cvm),
                now);
    }

    AppSnapshot app(SimulatedApp app, List<SimulatedCvm> cvms) {
        return new AppSnapshot(app.appId, app.name, app.kmsType, app.createdAt, app.envPubkey,
                cvms.stream().map(cvm -> snapshot(cvm, app.envPubkey)).toList());
    }

    RevisionSnapshot revision(AppRevision r, Function<String, CvmSnapshot> cvmByVmUuid) {
        return new RevisionSnapshot(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(),
                r.compose() == null ? Map.of() : r.compose(), r.createdAt(), r.operationType(), r.triggeredBy(),
                cvmByVmUuid.apply(r.vmUuid()), r.encryptedEnv());
    }

    private List<CvmSnapshot.Url> urls(SimulatedCvm cvm) {
        List<CvmSnapshot.Url> urls = new ArrayList<>();
        for (int port : publishedPorts(cvm.composeFile)) {
            String app = "https://" + cvm.appId + "-" + port + "." + baseDomain.get();
            String instance = cvm.instanceId == null ? null
                    : "https://" + cvm.instanceId + "-" + port + "." + baseDomain.get();
            urls.add(new CvmSnapshot.Url(app, instance));
        }
        return urls;
    }

    static Set<Integer> publishedPorts(Map<String, Object> compose) {
        Set<Integer> ports = new LinkedHashSet<>();
        Object yaml = compose == null ? null : compose.get("docker_compose_file");
        if (yaml instanceof String text) {
            Matcher m = PORT.matcher(text);
            while (m.find()) {
                ports.add(Integer.parseInt(m.group(1)));
            }
        }
        return ports;
    }

    private static long uptimeSeconds(SimulatedCvm cvm, Instant now) {
        if (cvm.bootedAt == null || !CvmLifecycle.RUNNING.equals(cvm.status)) {
            return 0;
        }
        return Math.max(0, Duration.between(cvm.bootedAt, now).getSeconds());
    }

    private static String uptime(SimulatedCvm cvm, Instant now) {
        long seconds = uptimeSeconds(cvm, now);
        long h = seconds / 3600;
        long m = (seconds % 3600) / 60;
        long s = seconds % 60;
        return (h > 0 ? h + "h " : "") + (h > 0 || m > 0 ? m + "m " : "") + s + "s";
    }

    private static String bootProgress(SimulatedCvm cvm) {
        return switch (cvm.status) {
            case CvmLifecycle.STARTING, CvmLifecycle.RESTARTING, CvmLifecycle.UPDATING -> "booting";
            case CvmLifecycle.RUNNING -> "done";
            default -> null;
        };
    }

    private static String shutdownProgress(SimulatedCvm cvm) {
        return switch (cvm.status) {
            case CvmLifecycle.STOPPING, CvmLifecycle.SHUTTING_DOWN, CvmLifecycle.DELETING -> "shutting down";
            default -> null;
        };
    }

    /** The simulator's one KMS in the SDK's {@code KmsInfoSchema} (off-chain: no chain, no contract). */
    static com.statefulcvm.simulator.api.KmsInfo kmsInfo() {
        return new com.statefulcvm.simulator.api.KmsInfo(SimulatedKms.ID, SimulatedKms.SLUG, "https://kms.sim.phala.local",
                CvmSnapshot.KMS_VERSION, null, null, null);
    }

    /** A node's TDX device id (32 bytes of hex), stable per node. */
    static String deviceId(int nodeId) {
        return ComposeHasher.sha256Hex(("simulated TDX device of node " + nodeId).getBytes(StandardCharsets.UTF_8));
    }

    /** vCPUs and memory (GB) of an instance type. */
    static int[] size(String instanceType) {
        return switch (Objects.requireNonNullElse(instanceType, "")) {
            case "tdx.medium" -> new int[] {2, 4};
            case "tdx.large" -> new int[] {4, 8};
            case "tdx.xlarge" -> new int[] {8, 16};
            case "tdx.2xlarge" -> new int[] {16, 32};
            default -> new int[] {1, 2};
        };
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
