package com.statefulcvm.simulator.cloud;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.statefulcvm.simulator.api.AppInfo;
import com.statefulcvm.simulator.api.BatchStatus;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.CvmState;
import com.statefulcvm.simulator.api.NetworkInfo;
import com.statefulcvm.simulator.api.RevisionPage;

/** Builds the API's answers from the simulated state. Called under {@link SimulatedCloud}'s lock. */
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

    CvmInfo info(SimulatedCvm cvm, boolean detail) {
        Operation op = cvm.operation;
        CvmInfo.Progress progress = op == null
                ? new CvmInfo.Progress(null, null, null)
                : new CvmInfo.Progress(op.target, text(op.startedAt), op.correlationId);
        int[] size = size(cvm.instanceType);
        List<CvmInfo.Url> urls = urls(cvm);
        return new CvmInfo(
                cvm.id, cvm.name, cvm.appId, cvm.vmUuid, cvm.instanceId, cvm.status,
                op != null, progress, cvm.composeHash,
                new CvmInfo.Resource(cvm.instanceType, size[0], size[1], cvm.diskSize),
                new CvmInfo.NodeInfo(cvm.nodeId, "sim-node-" + cvm.nodeId, cvm.region, "active"),
                new CvmInfo.Os(OS_NAME, OS_VERSION, false, OS_IMAGE_HASH),
                SimulatedCloud.KMS_TYPE,
                new CvmInfo.Gateway(baseDomain.get(), null),
                cvm.storageFs, cvm.diskSize, urls, urls,
                text(cvm.createdAt), text(cvm.updatedAt),
                detail ? new LinkedHashMap<>(cvm.composeFile) : null);
    }

    AppInfo app(SimulatedApp app, List<SimulatedCvm> cvms) {
        List<CvmInfo> infos = cvms.stream().map(cvm -> info(cvm, false)).toList();
        return new AppInfo("app_" + app.appId, app.name, app.appId, app.kmsType, infos.size(),
                infos.isEmpty() ? null : infos.get(0), infos, text(app.createdAt));
    }

    CvmState state(SimulatedCvm cvm) {
        return new CvmState(cvm.id, cvm.instanceId, cvm.name, cvm.status, uptime(cvm), text(cvm.exitedAt),
                bootProgress(cvm), null, shutdownProgress(cvm));
    }

    BatchStatus batch(SimulatedCvm cvm) {
        Operation op = cvm.operation;
        return new BatchStatus(cvm.vmUuid, cvm.status, uptime(cvm), op != null, bootProgress(cvm), null,
                op == null ? null : op.type.wireName(),
                op == null ? null : text(op.startedAt),
                op == null ? null : op.correlationId);
    }

    NetworkInfo network(SimulatedCvm cvm) {
        boolean online = CvmLifecycle.RUNNING.equals(cvm.status);
        return new NetworkInfo(online, true, online ? null : "CVM is not running", cvm.internalIp,
                online ? text(now()) : null, urls(cvm));
    }

    RevisionPage.Revision revision(AppRevision r) {
        return new RevisionPage.Revision(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(), text(r.createdAt()),
                r.operationType(), r.triggeredBy());
    }

    private List<CvmInfo.Url> urls(SimulatedCvm cvm) {
        List<CvmInfo.Url> urls = new ArrayList<>();
        for (int port : publishedPorts(cvm.composeFile)) {
            String app = "https://" + cvm.appId + "-" + port + "." + baseDomain.get();
            String instance = cvm.instanceId == null ? null
                    : "https://" + cvm.instanceId + "-" + port + "." + baseDomain.get();
            urls.add(new CvmInfo.Url(app, instance));
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

    private String uptime(SimulatedCvm cvm) {
        if (cvm.bootedAt == null || !CvmLifecycle.RUNNING.equals(cvm.status)) {
            return "0s";
        }
        Duration d = Duration.between(cvm.bootedAt, now());
        if (d.isNegative()) {
            d = Duration.ZERO;
        }
        long h = d.toHours();
        long m = d.toMinutesPart();
        long s = d.toSecondsPart();
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

    /** vCPUs and memory (GB) of an instance type. */
    static int[] size(String instanceType) {
        return switch (instanceType == null ? "" : instanceType) {
            case "tdx.medium" -> new int[] {2, 4};
            case "tdx.large" -> new int[] {4, 8};
            case "tdx.xlarge" -> new int[] {8, 16};
            case "tdx.2xlarge" -> new int[] {16, 32};
            default -> new int[] {1, 2};
        };
    }

    private Instant now() {
        return clock.instant();
    }

    static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
