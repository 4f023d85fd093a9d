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

import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.CREATING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.PENDING;

/**
 * How CVMs come to be: a provision remembered until its commit creates the app and its first CVM, then further
 * instances of the app. As strict as the service is known to be: one CVM of the workspace created at a time (the
 * observed 400, {@link CreationGate}), names by the SDK's hostname rule, the compose YAML, the workspace's quota, an
 * {@code encrypted_env} that opens with the app's key ({@link SimulatedKms}). Used only under {@link SimulatedCloud}'s
 * lock.
 */
final class Provisioning {

    private static final String DEFAULT_INSTANCE_TYPE = "tdx.small";
    private static final int DEFAULT_DISK_SIZE = 20;
    private static final int DEFAULT_NODE_ID = 1;
    private static final String DEFAULT_REGION = "US-WEST-1";

    private final Clock clock;
    private final CvmDirectory directory;
    private final RevisionHistory revisions;
    private final OperationRunner runner;
    private final WorkspaceQuota quota;
    private final OnChainCommits onChain;

    /** By app_id: provisioned, not yet committed. */
    private final Map<String, PendingProvision> provisions = new LinkedHashMap<>();

    Provisioning(Clock clock, CvmDirectory directory, RevisionHistory revisions, OperationRunner runner,
            WorkspaceQuota quota, OnChainCommits onChain) {
        this.clock = clock;
        this.directory = directory;
        this.revisions = revisions;
        this.runner = runner;
        this.quota = quota;
        this.onChain = onChain;
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
        CreationGate.check(directory);
        Map<String, Object> compose = appCompose(request.name(), request.composeFile());
        String composeHash = ComposeHasher.hash(compose);
        String instanceType = request.instanceType() == null ? DEFAULT_INSTANCE_TYPE : request.instanceType();
        quota.checkRoomFor(directory, instanceType, request.diskSize() == null ? DEFAULT_DISK_SIZE : request.diskSize());
        int nodeId = request.teepodId() == null ? DEFAULT_NODE_ID : request.teepodId();
        String appId = Ids.hex(20);
        PendingProvision provision = new PendingProvision(appId, request.name(), compose, composeHash,
                instanceType, request.diskSize() == null ? DEFAULT_DISK_SIZE : request.diskSize(), nodeId,
                request.region() == null ? DEFAULT_REGION : request.region(), SimulatedKms.envPublicKey(appId), now());
        provisions.put(provision.appId(), provision);
        return new ProvisionResult(provision.appId(), composeHash, provision.envPubkey(), CvmViews.OS_IMAGE_HASH,
                instanceType, nodeId, SimulatedKms.ID, CvmViews.kmsInfo(), CvmViews.deviceId(nodeId));
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
            SimulatedCvm committed = alreadyCommitted(request);
            if (committed != null) {
                // the same commit again (a retry whose first answer was lost): the CVM it created, not a second one
                return committed;
            }
            throw ApiException.detail(404, "No provisioned app for this app_id/compose_hash; call /cvms/provision");
        }
        if (!provision.composeHash().equalsIgnoreCase(request.composeHash())) {
            throw ApiException.badRequest("compose_hash does not match the provisioned compose");
        }
        checkName(provision.name());
        CreationGate.check(directory);
        quota.checkRoomFor(directory, provision.instanceType(), provision.diskSize());
        if (request.encryptedEnv() != null) {
            SimulatedKms.open(provision.appId(), request.encryptedEnv());
        }

        SimulatedApp app = new SimulatedApp();
        app.appId = provision.appId();
        app.name = provision.name();
        app.kmsType = SimulatedCloud.KMS_TYPE;
        app.createdAt = now();
        app.instanceType = provision.instanceType();
        app.diskSize = provision.diskSize();
        app.nodeId = provision.nodeId();
        app.region = provision.region();
        app.envPubkey = SimulatedKms.envPublicKey(provision.appId());
        directory.add(app);
        provisions.remove(provision.appId());

        SimulatedCvm cvm = newCvm(app, provision.name(), provision.compose(), provision.composeHash(),
                provision.nodeId(), request.encryptedEnv(), request.envKeys());
        revisions.record(app, cvm, OperationType.CREATE.wireName());
        runner.begin(cvm, OperationType.CREATE, CREATING, Ids.uuid());
        return cvm;
    }

    /**
     * A new CVM under an existing app, named as asked or (the SDK sends no name) with the SDK's default CVM name;
     * without a compose it copies the app's current one. An on-chain KMS app's new instance answers 465 first
     * ({@link OnChainCommits}); its commit is this call again with the 465's {@code token} (the request it held back
     * is the one created) or with {@code compose_hash} and {@code transaction_hash} next to the request.
     */
    SimulatedCvm addInstance(String appId, InstanceRequest request) {
        SimulatedApp app = directory.requireApp(appId);
        InstanceRequest given = request == null ? InstanceRequest.empty() : request;
        boolean committed = given.token() != null;
        InstanceRequest req = committed
                ? onChain.takeInstance(app, given.token(), given.composeHash(), given.transactionHash()).request()
                : given;
        String name = req.name() != null ? req.name() : generatedName();
        checkName(name);
        CreationGate.check(directory);
        quota.checkRoomFor(directory, app.instanceType, app.diskSize);
        Map<String, Object> compose = new TreeMap<>(app.currentCompose);
        if (req.dockerComposeFile() != null) {
            ComposeYaml.check(req.dockerComposeFile(), "docker_compose_file");
            compose.put("docker_compose_file", req.dockerComposeFile());
        }
        if (req.preLaunchScript() != null) {
            compose.put("pre_launch_script", req.preLaunchScript());
        }
        String composeHash = ComposeHasher.hash(compose);
        if (req.composeHash() != null && !bare(req.composeHash()).equalsIgnoreCase(composeHash)) {
            throw ApiException.badRequest("compose_hash does not match the compose");
        }
        int nodeId = req.nodeId() == null ? app.nodeId : req.nodeId();
        if (req.encryptedEnv() != null) {
            SimulatedKms.open(app.appId, req.encryptedEnv());
        }
        if (app.onChainKms && !committed) {
            if (req.transactionHash() == null || req.transactionHash().isBlank()) {
                throw onChain.instancePreconditionRequired(app, new OnChainCommits.PendingInstance(app.appId, req, composeHash),
                        nodeId);
            }
            onChain.checkCommit(app, composeHash, req.composeHash(), req.transactionHash());
        }
        if (app.onChainKms) {
            app.registeredComposeHashes.add(composeHash);
        }
        SimulatedCvm cvm = newCvm(app, name, compose, composeHash, nodeId, req.encryptedEnv(), null);
        revisions.record(app, cvm, OperationType.CREATE.wireName());
        runner.begin(cvm, OperationType.CREATE, PENDING, Ids.uuid());
        return cvm;
    }

    private static String bare(String hash) {
        return hash.startsWith("0x") ? hash.substring(2) : hash;
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
        if (!(yaml instanceof String yamlText)) {
            throw ApiException.unprocessable(List.of("body", "compose_file", "docker_compose_file"),
                    "Input should be a valid string", "string_type");
        }
        ComposeYaml.check(yamlText, "compose_file.docker_compose_file");
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

    /**
     * The CVM a commit of this app id and compose hash created already: the app's first CVM, if it still exists and
     * the app's first revision has that hash.
     */
    private SimulatedCvm alreadyCommitted(CommitRequest request) {
        if (request.appId() == null) {
            return null;
        }
        SimulatedApp app = directory.app(CvmDirectory.appKey(request.appId()));
        if (app == null || app.cvmVmUuids.isEmpty() || app.revisions.isEmpty()
                || !app.revisions.get(0).composeHash().equalsIgnoreCase(request.composeHash())) {
            return null;
        }
        return directory.cvm(app.cvmVmUuids.get(0));
    }

    private void checkName(String name) {
        CvmNames.check(name);
        if (directory.nameTaken(name)) {
            throw ApiException.structured(409, "ERR-01-004", "CVM name already exists", "name", name,
                    "A CVM named '" + name + "' already exists in this workspace");
        }
    }

    /**
     * The name of an instance created without one: the SDK's default CVM name ({@code generateDefaultCvmName}:
     * {@code dstack-app-} and five lower-case letters or digits). How the service itself names it is not documented.
     */
    private String generatedName() {
        String name;
        do {
            name = "dstack-app-" + Ids.nameSuffix();
        } while (directory.findCvm(name).isPresent());
        return name;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
