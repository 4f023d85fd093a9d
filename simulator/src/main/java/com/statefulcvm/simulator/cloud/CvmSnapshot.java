package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One CVM as it was at {@link #observedAt}: an immutable copy of everything any API version shows about it.
 * The simulated cloud answers snapshots; the version mappers ({@code com.statefulcvm.simulator.version}) turn them
 * into each API version's wire shape.
 *
 * @param seq the integer id (stable for the CVM's life, never reused): what API versions before 2026-05-22 call
 *            {@code id}
 * @param id  the hashed id {@code cvm_…} of API version 2026-05-22
 */
public record CvmSnapshot(
        long seq,
        String id,
        String name,
        String appId,
        String vmUuid,
        String instanceId,
        String status,
        Op operation,
        String composeHash,
        Map<String, Object> composeFile,
        String instanceType,
        int vcpu,
        int memoryGb,
        int diskSize,
        int nodeId,
        String nodeName,
        String region,
        String storageFs,
        String internalIp,
        String envPubkey,
        String gatewayBaseDomain,
        List<Url> urls,
        Instant createdAt,
        Instant updatedAt,
        Instant exitedAt,
        long uptimeSeconds,
        String uptime,
        String bootProgress,
        String shutdownProgress,
        Instant observedAt) {

    public static final String OS_NAME = CvmViews.OS_NAME;
    public static final String OS_VERSION = CvmViews.OS_VERSION;
    public static final String OS_IMAGE_HASH = CvmViews.OS_IMAGE_HASH;
    public static final String KMS_TYPE = SimulatedCloud.KMS_TYPE;
    /** The simulator's one KMS (off-chain), as the older API versions name it in {@code kms_info}. */
    public static final String KMS_ID = "kms_sim_phala";
    public static final String KMS_SLUG = "phala-sim";
    public static final String KMS_VERSION = "v0.5.3";

    /** The operation in flight. */
    public record Op(String type, String target, Instant startedAt, String correlationId) {
    }

    /** A gateway URL of one published port: through the app (load-balanced) and to this instance (null before boot). */
    public record Url(String app, String instance) {
    }

    public CvmSnapshot {
        composeFile = Collections.unmodifiableMap(new TreeMap<>(composeFile));
        urls = List.copyOf(urls);
    }

    public boolean inProgress() {
        return operation != null;
    }

    public boolean running() {
        return CvmLifecycle.RUNNING.equals(status);
    }

    /** Running, booted and settled: what the guest agent answers for (network, attestation, sysinfo). */
    public boolean online() {
        return running() && instanceId != null;
    }

    public String dockerComposeFile() {
        Object yaml = composeFile.get("docker_compose_file");
        return yaml instanceof String text ? text : null;
    }

    /** A boolean flag of the app compose ({@code public_logs}, {@code gateway_enabled}, ...). */
    public boolean composeFlag(String key, boolean fallback) {
        Object value = composeFile.get(key);
        return value instanceof Boolean flag ? flag : fallback;
    }

    /** The canonical JSON text of the app compose (what {@code tcb_info.app_compose} holds). */
    public String appComposeJson() {
        return ComposeHasher.canonicalJson(composeFile);
    }

    /** The dstack dashboard of the app (guest agent, port 8090) behind the gateway. */
    public String dashboardUrl() {
        return "https://" + appId + "-8090." + gatewayBaseDomain;
    }
}
