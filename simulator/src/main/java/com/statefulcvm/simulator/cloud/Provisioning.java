package com.statefulcvm.simulator.cloud;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.CREATING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.PENDING;

/**
 * How CVMs come to be: a provision remembered until its commit creates the app and its first CVM, then further
 * instances of the app. Used only under {@link SimulatedCloud}'s lock.
 */
final class Provisioning {

    static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9-]{4,62}$");

    private static final String DEFAULT_INSTANCE_TYPE = "tdx.small";
    private static final int DEFAULT_DISK_SIZE = 20;
    private static final int DEFAULT_NODE_ID = 1;
    private static final String DEFAULT_REGION = "US-WEST-1";

    private final Clock clock;
    private final CvmDirectory directory;
    private final RevisionHistory revisions;
    private final OperationRunner runner;

    /** By app_id: provisioned, not yet committed. */
    private final Map<String, PendingProvision> provisions = new LinkedHashMap<>();

    Provisioning(Clock clock, CvmDirectory directory, RevisionHistory revisions, OperationRunner runner) {
        this.clock = clock;
        this.directory = directory;
        this.revisions = revisions;
        this.runner = runner;
    }

    ProvisionResult provision(ProvisionRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.name() == null) {
            throw ApiException.missing("name");
        }
        if (request.composeFile() == null) {
            throw ApiException.missing("compose_file");
        }
        if (request.diskSize() != null && request.diskSize() <= 0) {
            throw ApiException.unprocessable(List.of("body", "disk_size"), "Input should be greater than 0",
                    "greater_than");
        }
        checkName(request.name());
        Map<String, Object> compose = appCompose(request.name(), request.composeFile());
        String composeHash = ComposeHasher.hash(compose);
        String instanceType = request.instanceType() == null ? DEFAULT_INSTANCE_TYPE : request.instanceType();
        int nodeId = request.nodeId() == null ? DEFAULT_NODE_ID : request.nodeId();
        PendingProvision provision = new PendingProvision(Ids.hex(20), request.name(), compose, composeHash,
                instanceType, request.diskSize() == null ? DEFAULT_DISK_SIZE : request.diskSize(), nodeId,
                request.region() == null ? DEFAULT_REGION : request.region(), Ids.hex(32), now());
        provisions.put(provision.appId(), provision);
        return new ProvisionResult(provision.appId(), composeHash, provision.envPubkey(), CvmViews.OS_IMAGE_HASH,
                instanceType, nodeId);
    }

    /** Creates the app and its first CVM, which then boots. */
    SimulatedCvm commit(CommitRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.composeHash() == null) {
            throw ApiException.missing("compose_hash");
        }
        PendingProvision provision = request.appId() != null
                ? provisions.get(CvmDirectory.appKey(request.appId()))
                : provisions.values().stream()
                        .filter(p -> p.composeHash().equalsIgnoreCase(request.composeHash()))
                        .reduce((first, second) -> second).orElse(null);
        if (provision == null) {
            throw ApiException.detail(404, "No provisioned app for this app_id/compose_hash; call /cvms/provision");
        }
        if (!provision.composeHash().equalsIgnoreCase(request.composeHash())) {
            throw ApiException.badRequest("compose_hash does not match the provisioned compose");
        }
        checkName(provision.name());

        SimulatedApp app = new SimulatedApp();
        app.appId = provision.appId();
        app.name = provision.name();
        app.kmsType = SimulatedCloud.KMS_TYPE;
        app.createdAt = now();
        app.instanceType = provision.instanceType();
        app.diskSize = provision.diskSize();
        app.nodeId = provision.nodeId();
        app.region = provision.region();
        app.envPubkey = provision.envPubkey() != null ? provision.envPubkey() : Ids.hex(32);
        directory.add(app);
        provisions.remove(provision.appId());

        SimulatedCvm cvm = newCvm(app, provision.name(), provision.compose(), provision.composeHash(),
                provision.nodeId(), request.encryptedEnv(), request.envKeys());
        revisions.record(app, cvm, OperationType.CREATE.wireName());
        runner.begin(cvm, OperationType.CREATE, CREATING, Ids.uuid());
        return cvm;
    }

    /** A new named CVM under an existing app; without a compose it copies the app's current one. */
    SimulatedCvm addInstance(String appId, InstanceRequest request) {
        SimulatedApp app = directory.requireApp(appId);
        InstanceRequest req = request == null ? InstanceRequest.empty() : request;
        String name = req.name() != null ? req.name() : generatedName(app);
        checkName(name);
        Map<String, Object> compose = new TreeMap<>(app.currentCompose);
        if (req.dockerComposeFile() != null) {
            compose.put("docker_compose_file", req.dockerComposeFile());
        }
        if (req.preLaunchScript() != null) {
            compose.put("pre_launch_script", req.preLaunchScript());
        }
        String composeHash = ComposeHasher.hash(compose);
        if (req.composeHash() != null && !req.composeHash().equalsIgnoreCase(composeHash)) {
            throw ApiException.badRequest("compose_hash does not match the compose");
        }
        int nodeId = req.nodeId() == null ? app.nodeId : req.nodeId();
        SimulatedCvm cvm = newCvm(app, name, compose, composeHash, nodeId, req.encryptedEnv(), null);
        revisions.record(app, cvm, OperationType.CREATE.wireName());
        runner.begin(cvm, OperationType.CREATE, PENDING, Ids.uuid());
        return cvm;
    }

    Collection<PendingProvision> pending() {
        return provisions.values();
    }

    void restore(List<PendingProvision> saved) {
        saved.forEach(p -> provisions.put(p.appId(), p));
    }

    void clear() {
        provisions.clear();
    }

    private SimulatedCvm newCvm(SimulatedApp app, String name, Map<String, Object> compose, String composeHash,
            int nodeId, String encryptedEnv, List<String> envKeys) {
        SimulatedCvm cvm = new SimulatedCvm();
        cvm.seq = directory.nextSeq();
        cvm.id = Ids.cvmId();
        cvm.name = name;
        cvm.appId = app.appId;
        cvm.vmUuid = Ids.uuid();
        cvm.composeFile = compose;
        cvm.composeHash = composeHash;
        cvm.encryptedEnv = encryptedEnv;
        cvm.envKeys = envKeys == null ? null : List.copyOf(envKeys);
        cvm.instanceType = app.instanceType;
        cvm.diskSize = app.diskSize;
        cvm.nodeId = nodeId;
        cvm.region = app.region;
        cvm.storageFs = String.valueOf(compose.getOrDefault("storage_fs", "zfs"));
        ThreadLocalRandom random = ThreadLocalRandom.current();
        cvm.internalIp = "10.0." + random.nextInt(256) + "." + random.nextInt(2, 255);
        cvm.createdAt = now();
        cvm.updatedAt = cvm.createdAt;
        directory.add(app, cvm);
        return cvm;
    }

    /** The app compose as dstack reads it: the platform's defaults, overridden by what the client sent. */
    private static Map<String, Object> appCompose(String name, Map<String, Object> given) {
        Object yaml = given.get("docker_compose_file");
        if (yaml == null) {
            throw ApiException.missing("compose_file", "docker_compose_file");
        }
        if (!(yaml instanceof String)) {
            throw ApiException.unprocessable(List.of("body", "compose_file", "docker_compose_file"),
                    "Input should be a valid string", "string_type");
        }
        Map<String, Object> compose = new TreeMap<>();
        compose.put("manifest_version", 2);
        compose.put("name", name);
        compose.put("runner", "docker-compose");
        compose.put("allowed_envs", List.of());
        compose.put("gateway_enabled", true);
        compose.put("public_logs", true);
        compose.put("public_sysinfo", true);
        compose.put("public_tcbinfo", true);
        compose.put("secure_time", false);
        compose.put("storage_fs", "zfs");
        compose.put("kms_enabled", true);
        compose.put("key_provider", "kms");
        compose.put("no_instance_id", false);
        given.forEach((key, value) -> {
            // the official SDK sends compose_file.name "" when none is given: that is no name
            if (value != null && !("name".equals(key) && value instanceof String text && text.isBlank())) {
                compose.put(key, value);
            }
        });
        return compose;
    }

    private void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw ApiException.structured(400, "ERR-01-003", "Invalid CVM name", "name", name,
                    "Name must start with a letter and have 5 to 63 letters, digits or hyphens");
        }
        if (directory.nameTaken(name)) {
            throw ApiException.structured(409, "ERR-01-004", "CVM name already exists", "name", name,
                    "A CVM named '" + name + "' already exists in this workspace");
        }
    }

    private String generatedName(SimulatedApp app) {
        String base = app.name.length() > 57 ? app.name.substring(0, 57) : app.name;
        String name;
        do {
            name = base + "-" + Ids.nameSuffix();
        } while (directory.findCvm(name).isPresent());
        return name;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
