package com.statefulcvm.simulator.cloud;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.BatchStatus;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.CvmStats;
import com.statefulcvm.simulator.api.EnvUpdateRequest;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;
import com.statefulcvm.simulator.api.VmUuidsRequest;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.CREATING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.DELETED;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.DELETING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.PENDING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.RUNNING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.STARTING;
import static com.statefulcvm.simulator.cloud.CvmLifecycle.STOPPED;

/**
 * The simulated Phala Cloud: apps, CVMs, revisions and pending provisions in memory, with asynchronous
 * lifecycles driven by a scheduler. Thread-safe: every public method runs under this object's lock and answers
 * immutable snapshots ({@link CvmSnapshot}, {@link AppSnapshot}, ...), the same whatever API version the caller
 * speaks. With a state file, every change is saved and the state is loaded (in-flight operations completed) at
 * construction.
 */
public class SimulatedCloud implements AutoCloseable {

    static final String KMS_TYPE = "phala";
    static final Pattern NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9-]{4,62}$");

    private static final Logger log = LoggerFactory.getLogger(SimulatedCloud.class);
    private static final Pattern GATEWAY_TARGET = Pattern.compile("^([0-9a-fA-F]{40})-(\\d{1,5})[sg]?$");
    /** {@code app_<40 hex>} / {@code instance_<40 hex>} / bare 40 hex: an app's current CVM or an instance. */
    private static final Pattern HEX_REF = Pattern.compile("^(?:app_|instance_)?([0-9a-fA-F]{40})$");
    private static final String DEFAULT_INSTANCE_TYPE = "tdx.small";
    private static final int DEFAULT_DISK_SIZE = 20;
    private static final int DEFAULT_NODE_ID = 1;
    private static final String DEFAULT_REGION = "US-WEST-1";
    private static final String TRIGGERED_BY = "api";

    private final SimulatorProperties properties;
    private final Clock clock;
    private final EventJournal journal = new EventJournal();
    private final CvmViews views;
    private final StateStore store;
    private final ScheduledExecutorService scheduler;

    /** By vm_uuid, in creation order. */
    private final Map<String, SimulatedCvm> cvms = new LinkedHashMap<>();
    /** By app_id (40 hex, no prefix). */
    private final Map<String, SimulatedApp> apps = new LinkedHashMap<>();
    /** By app_id: provisioned, not yet committed. */
    private final Map<String, PendingProvision> provisions = new LinkedHashMap<>();
    /** The last integer CVM id given out. */
    private long lastCvmSeq;

    public SimulatedCloud(SimulatorProperties properties) {
        this(properties, Clock.systemUTC());
    }

    public SimulatedCloud(SimulatorProperties properties, Clock clock) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.clock = clock;
        this.views = new CvmViews(properties::getGatewayBaseDomain, clock);
        this.store = properties.getStateFile() == null ? null : new StateStore(properties.getStateFile());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "simulated-cloud");
            thread.setDaemon(true);
            return thread;
        });
        if (store != null) {
            load();
        }
    }

    // ---------------------------------------------------------------- create

    public synchronized ProvisionResult provision(ProvisionRequest request) {
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
        persist();
        return new ProvisionResult(provision.appId(), composeHash, provision.envPubkey(), CvmViews.OS_IMAGE_HASH,
                instanceType, nodeId);
    }

    /** Commits a provision: creates the app and its first CVM, which then boots. */
    public synchronized CvmSnapshot commit(CommitRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.composeHash() == null) {
            throw ApiException.missing("compose_hash");
        }
        PendingProvision provision = request.appId() != null
                ? provisions.get(appKey(request.appId()))
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
        app.kmsType = KMS_TYPE;
        app.createdAt = now();
        app.instanceType = provision.instanceType();
        app.diskSize = provision.diskSize();
        app.nodeId = provision.nodeId();
        app.region = provision.region();
        app.envPubkey = provision.envPubkey() != null ? provision.envPubkey() : Ids.hex(32);
        apps.put(app.appId, app);
        provisions.remove(provision.appId());

        SimulatedCvm cvm = newCvm(app, provision.name(), provision.compose(), provision.composeHash(),
                provision.nodeId(), request.encryptedEnv(), request.envKeys());
        addRevision(app, cvm, OperationType.CREATE.wireName());
        begin(cvm, OperationType.CREATE, CREATING, Ids.uuid());
        persist();
        return snapshot(cvm);
    }

    /** A new named CVM under an existing app; without a compose it copies the app's current one. */
    public synchronized CvmSnapshot addInstance(String appId, InstanceRequest request) {
        SimulatedApp app = requireApp(appId);
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
        addRevision(app, cvm, OperationType.CREATE.wireName());
        begin(cvm, OperationType.CREATE, PENDING, Ids.uuid());
        persist();
        return snapshot(cvm);
    }

    // ---------------------------------------------------------------- read

    public synchronized AppSnapshot app(String appId) {
        SimulatedApp app = requireApp(appId);
        return views.app(app, cvmsOf(app));
    }

    /**
     * Apps newest first, those with at least one CVM that passes {@code filter} (every app when null), one page.
     */
    public synchronized Page<AppSnapshot> apps(int page, int pageSize, Predicate<CvmSnapshot> filter) {
        checkPage(page, pageSize);
        List<AppSnapshot> all = new ArrayList<>();
        for (SimulatedApp app : apps.values()) {
            AppSnapshot snapshot = views.app(app, cvmsOf(app));
            if (filter == null || snapshot.cvms().stream().anyMatch(filter)) {
                all.add(snapshot);
            }
        }
        Collections.reverse(all);
        return Page.of(all, page, pageSize);
    }

    /** Every CVM of the workspace that passes {@code filter} (all when null), newest first, one page. */
    public synchronized Page<CvmSnapshot> cvms(int page, int pageSize, Predicate<CvmSnapshot> filter) {
        checkPage(page, pageSize);
        List<CvmSnapshot> all = new ArrayList<>();
        for (SimulatedCvm cvm : cvms.values()) {
            CvmSnapshot snapshot = snapshot(cvm);
            if (filter == null || filter.test(snapshot)) {
                all.add(snapshot);
            }
        }
        Collections.reverse(all);
        return Page.of(all, page, pageSize);
    }

    /** The app's CVMs, oldest first. */
    public synchronized List<CvmSnapshot> appCvms(String appId) {
        return app(appId).cvms();
    }

    /** One CVM: {@code ref} is its hashed or integer id, vm_uuid, name, instance_id or {@code app_<app_id>}. */
    public synchronized CvmSnapshot cvm(String ref) {
        return snapshot(requireCvm(ref));
    }

    public synchronized AttestationInfo attestation(String ref) {
        return AttestationBuilder.build(requireCvm(ref));
    }

    /** What the guest agent reports about the machine: sizes from the instance type, usage made up but stable. */
    public synchronized CvmStats stats(String ref) {
        return StatsBuilder.build(snapshot(requireCvm(ref)));
    }

    public SimulatedAccount account() {
        return SimulatedAccount.DEFAULT;
    }

    /** Keyed by the identifiers as asked; unknown ones are left out. */
    public synchronized Map<String, BatchStatus> statusBatch(VmUuidsRequest request) {
        if (request == null || request.vmUuids() == null) {
            throw ApiException.missing("vm_uuids");
        }
        Map<String, BatchStatus> answer = new LinkedHashMap<>();
        for (String ref : request.vmUuids()) {
            findCvm(ref).map(this::snapshot).ifPresent(cvm -> answer.put(ref, batch(cvm)));
        }
        return answer;
    }

    private static BatchStatus batch(CvmSnapshot cvm) {
        CvmSnapshot.Op op = cvm.operation();
        return new BatchStatus(cvm.vmUuid(), cvm.status(), cvm.uptime(), op != null, cvm.bootProgress(), null,
                op == null ? null : op.type(),
                op == null ? null : text(op.startedAt()),
                op == null ? null : op.correlationId());
    }

    public synchronized Page<RevisionSnapshot> revisions(String appId, int page, int pageSize) {
        SimulatedApp app = requireApp(appId);
        checkPage(page, pageSize);
        List<AppRevision> newestFirst = new ArrayList<>(app.revisions);
        Collections.reverse(newestFirst);
        Page<AppRevision> slice = Page.of(newestFirst, page, pageSize);
        return new Page<>(slice.map(this::revision), slice.total(), page, pageSize);
    }

    public synchronized RevisionSnapshot revision(String appId, String revisionId) {
        return requireApp(appId).revisions.stream()
                .filter(r -> r.revisionId().equals(revisionId))
                .findFirst()
                .map(this::revision)
                .orElseThrow(() -> ApiException.notFound("Revision"));
    }

    private RevisionSnapshot revision(AppRevision revision) {
        return views.revision(revision, vmUuid -> {
            SimulatedCvm cvm = cvms.get(vmUuid);
            return cvm == null ? null : snapshot(cvm);
        });
    }

    private static void checkPage(int page, int pageSize) {
        if (page < 1) {
            throw ApiException.unprocessable(List.of("query", "page"), "Input should be greater than or equal to 1",
                    "greater_than_equal");
        }
        if (pageSize < 1 || pageSize > 100) {
            throw ApiException.unprocessable(List.of("query", "page_size"), "Input should be between 1 and 100",
                    "less_than_equal");
        }
    }

    // ---------------------------------------------------------------- lifecycle

    public CvmSnapshot start(String ref) {
        return lifecycle(ref, OperationType.START);
    }

    public CvmSnapshot stop(String ref) {
        return lifecycle(ref, OperationType.STOP);
    }

    public CvmSnapshot shutdown(String ref) {
        return lifecycle(ref, OperationType.SHUTDOWN);
    }

    public CvmSnapshot restart(String ref) {
        return lifecycle(ref, OperationType.RESTART);
    }

    public CvmSnapshot delete(String ref) {
        return lifecycle(ref, OperationType.DELETE);
    }

    private synchronized CvmSnapshot lifecycle(String ref, OperationType type) {
        SimulatedCvm cvm = requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, type);
        begin(cvm, type, null, Ids.uuid());
        persist();
        return snapshot(cvm);
    }

    // ---------------------------------------------------------------- updates

    public synchronized UpdateOutcome updateCompose(String ref, String dockerComposeFile, String preLaunchScript) {
        if (dockerComposeFile == null) {
            throw ApiException.missing("docker_compose_file");
        }
        SimulatedCvm cvm = requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_COMPOSE);
        Map<String, Object> compose = new TreeMap<>(cvm.composeFile);
        compose.put("docker_compose_file", dockerComposeFile);
        if (preLaunchScript != null) {
            compose.put("pre_launch_script", preLaunchScript);
        }
        return applyUpdate(cvm, compose, cvm.encryptedEnv, cvm.envKeys, OperationType.UPDATE_COMPOSE);
    }

    /** Replaces the encrypted env; a new set of {@code env_keys} also changes the compose's {@code allowed_envs}. */
    public synchronized UpdateOutcome updateEnvs(String ref, EnvUpdateRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.encryptedEnv() == null) {
            throw ApiException.missing("encrypted_env");
        }
        SimulatedCvm cvm = requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_ENV);
        Map<String, Object> compose = cvm.composeFile;
        List<String> envKeys = cvm.envKeys;
        if (request.envKeys() != null) {
            envKeys = request.envKeys().stream().filter(Objects::nonNull).toList();
            if (!new HashSet<>(envKeys).equals(new HashSet<>(allowedEnvs(cvm.composeFile)))) {
                compose = new TreeMap<>(cvm.composeFile);
                compose.put("allowed_envs", envKeys);
            }
        }
        return applyUpdate(cvm, compose, request.encryptedEnv(), envKeys, OperationType.UPDATE_ENV);
    }

    /** Rolls the chosen CVMs of the app to a revision's compose; CVMs already on it are left alone. */
    public synchronized UpdateOutcome redeploy(String appId, String revisionId, VmUuidsRequest request) {
        SimulatedApp app = requireApp(appId);
        AppRevision revision = app.revisions.stream()
                .filter(r -> r.revisionId().equals(revisionId))
                .findFirst()
                .orElseThrow(() -> ApiException.notFound("Revision"));
        if (request == null || request.vmUuids() == null) {
            throw ApiException.missing("vm_uuids");
        }
        if (request.vmUuids().isEmpty()) {
            throw ApiException.unprocessable(List.of("body", "vm_uuids"),
                    "List should have at least 1 item after validation, not 0", "too_short");
        }
        List<SimulatedCvm> targets = new ArrayList<>();
        for (String ref : request.vmUuids()) {
            SimulatedCvm cvm = cvmsOf(app).stream()
                    .filter(c -> ref != null && c.matches(ref.trim()))
                    .findFirst()
                    .orElseThrow(() -> ApiException.notFound("CVM"));
            CvmLifecycle.checkAccepts(cvm, OperationType.REDEPLOY);
            if (!targets.contains(cvm)) {
                targets.add(cvm);
            }
        }
        String correlationId = Ids.uuid();
        boolean started = false;
        for (SimulatedCvm cvm : targets) {
            if (revision.composeHash().equals(cvm.composeHash)) {
                continue;
            }
            cvm.composeFile = new TreeMap<>(revision.compose());
            cvm.composeHash = revision.composeHash();
            addRevision(app, cvm, OperationType.REDEPLOY.wireName());
            begin(cvm, OperationType.REDEPLOY, null, correlationId);
            started = true;
        }
        persist();
        return started ? UpdateOutcome.inProgress(correlationId, false) : UpdateOutcome.noChange();
    }

    private UpdateOutcome applyUpdate(SimulatedCvm cvm, Map<String, Object> compose, String encryptedEnv,
            List<String> envKeys, OperationType type) {
        String composeHash = ComposeHasher.hash(compose);
        boolean composeChanged = !composeHash.equals(cvm.composeHash);
        boolean envChanged = !Objects.equals(encryptedEnv, cvm.encryptedEnv);
        boolean allowedEnvsChanged = !new HashSet<>(allowedEnvs(compose)).equals(
                new HashSet<>(allowedEnvs(cvm.composeFile)));
        if (!composeChanged && !envChanged) {
            return UpdateOutcome.noChange();
        }
        cvm.encryptedEnv = encryptedEnv;
        cvm.envKeys = envKeys;
        if (composeChanged) {
            cvm.composeFile = compose;
            cvm.composeHash = composeHash;
            addRevision(requireApp(cvm.appId), cvm, type.wireName());
        }
        String correlationId = Ids.uuid();
        begin(cvm, type, null, correlationId);
        persist();
        return UpdateOutcome.inProgress(correlationId, allowedEnvsChanged);
    }

    // ---------------------------------------------------------------- gateway and admin

    /** What the gateway finds behind {@code <instance_id|app_id>-<port>[s|g]}. */
    public synchronized Upstream gateway(String target) {
        Matcher m = GATEWAY_TARGET.matcher(target == null ? "" : target);
        if (!m.matches()) {
            return Upstream.NONE;
        }
        String id = m.group(1).toLowerCase();
        for (SimulatedCvm cvm : cvms.values()) {
            if (id.equals(cvm.instanceId)) {
                return upstream(cvm);
            }
        }
        SimulatedApp app = apps.get(id);
        if (app == null) {
            return Upstream.NONE;
        }
        Upstream best = Upstream.NONE;
        for (SimulatedCvm cvm : cvmsOf(app)) {
            Upstream upstream = upstream(cvm);
            if (upstream.ordinal() < best.ordinal()) {
                best = upstream;
            }
        }
        return best;
    }

    /** The CVM stops at once (no shutdown), cancelling whatever it was doing; it stays stopped until started. */
    public synchronized CvmSnapshot crash(String ref) {
        SimulatedCvm cvm = requireCvm(ref);
        if (DELETING.equals(cvm.status)) {
            throw ApiException.detail(409, "CVM is being deleted");
        }
        cvm.operation = null;
        if (!STOPPED.equals(cvm.status)) {
            transition(cvm, STOPPED);
        }
        persist();
        return snapshot(cvm);
    }

    /** Marks the workload healthy or not; sticky across restarts and updates. */
    public synchronized CvmSnapshot setHealthy(String ref, boolean healthy) {
        SimulatedCvm cvm = requireCvm(ref);
        cvm.healthy = healthy;
        persist();
        return snapshot(cvm);
    }

    public List<CvmEvent> events(long sinceSeq) {
        return journal.since(sinceSeq);
    }

    public SimulatorProperties.Timings timings() {
        return properties.getTimings();
    }

    /** Forgets every CVM, app, provision and event. Operations in flight are dropped. */
    public synchronized void reset() {
        cvms.clear();
        apps.clear();
        provisions.clear();
        journal.clear();
        lastCvmSeq = 0;
        persist();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    // ---------------------------------------------------------------- the machinery

    private Operation begin(SimulatedCvm cvm, OperationType type, String createStatus, String correlationId) {
        CvmLifecycle.Plan plan = CvmLifecycle.plan(type, properties.getTimings(), createStatus);
        Operation operation = new Operation(type, correlationId, now(), plan.hops());
        cvm.operation = operation;
        transition(cvm, plan.initialStatus());
        schedule(cvm, operation);
        return operation;
    }

    private void schedule(SimulatedCvm cvm, Operation operation) {
        if (!operation.hasNextHop()) {
            return;
        }
        String vmUuid = cvm.vmUuid;
        String correlationId = operation.correlationId;
        int hop = operation.nextHop;
        try {
            scheduler.schedule(() -> advance(vmUuid, correlationId, hop), operation.nextHop().delayMs(),
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            log.debug("simulated cloud closed; {} stays {}", cvm.name, cvm.status);
        }
    }

    /** A scheduled hop: applies it if the operation is still the one that scheduled it. */
    private synchronized void advance(String vmUuid, String correlationId, int hop) {
        try {
            SimulatedCvm cvm = cvms.get(vmUuid);
            if (cvm == null || cvm.operation == null || !cvm.operation.correlationId.equals(correlationId)
                    || cvm.operation.nextHop != hop) {
                return;
            }
            step(cvm);
            if (cvm.operation != null) {
                schedule(cvm, cvm.operation);
            }
            persist();
        } catch (RuntimeException e) {
            log.error("simulated transition of {} failed", vmUuid, e);
        }
    }

    /** Enters the operation's next status; the operation ends (the CVM settles) with its last hop. */
    private void step(SimulatedCvm cvm) {
        Operation operation = cvm.operation;
        Operation.Hop hop = operation.nextHop();
        operation.nextHop++;
        if (!operation.hasNextHop()) {
            cvm.operation = null;
        }
        transition(cvm, hop.status());
    }

    private void transition(SimulatedCvm cvm, String to) {
        Instant now = now();
        journal.record(now, cvm.name, cvm.vmUuid, cvm.status, to);
        log.debug("CVM {}: {} -> {}", cvm.name, cvm.status, to);
        cvm.updatedAt = now;
        if (DELETED.equals(to)) {
            remove(cvm);
            return;
        }
        cvm.status = to;
        switch (to) {
            case STARTING -> assignInstanceIdAtFirstBoot(cvm);
            case RUNNING -> {
                assignInstanceIdAtFirstBoot(cvm);
                cvm.bootedAt = now;
                cvm.exitedAt = null;
            }
            case STOPPED -> {
                cvm.bootedAt = null;
                cvm.exitedAt = now;
            }
            default -> {
                // transitional statuses change nothing else
            }
        }
    }

    private static void assignInstanceIdAtFirstBoot(SimulatedCvm cvm) {
        if (cvm.instanceId == null) {
            cvm.instanceId = Ids.hex(20);
        }
    }

    private void remove(SimulatedCvm cvm) {
        cvms.remove(cvm.vmUuid);
        SimulatedApp app = apps.get(cvm.appId);
        if (app != null) {
            app.cvmVmUuids.remove(cvm.vmUuid);
        }
    }

    private SimulatedCvm newCvm(SimulatedApp app, String name, Map<String, Object> compose, String composeHash,
            int nodeId, String encryptedEnv, List<String> envKeys) {
        SimulatedCvm cvm = new SimulatedCvm();
        cvm.seq = ++lastCvmSeq;
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
        cvms.put(cvm.vmUuid, cvm);
        app.cvmVmUuids.add(cvm.vmUuid);
        return cvm;
    }

    private void addRevision(SimulatedApp app, SimulatedCvm cvm, String operationType) {
        app.revisions.add(new AppRevision(Ids.revisionId(), app.appId, cvm.vmUuid, cvm.composeHash,
                cvm.composeFile, now(), operationType, TRIGGERED_BY));
        app.currentCompose = cvm.composeFile;
        app.currentComposeHash = cvm.composeHash;
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

    private static List<String> allowedEnvs(Map<String, Object> compose) {
        Object value = compose.get("allowed_envs");
        if (value instanceof Collection<?> list) {
            return list.stream().filter(Objects::nonNull).map(String::valueOf).toList();
        }
        return List.of();
    }

    private void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw ApiException.structured(400, "ERR-01-003", "Invalid CVM name", "name", name,
                    "Name must start with a letter and have 5 to 63 letters, digits or hyphens");
        }
        boolean taken = cvms.values().stream().anyMatch(cvm -> cvm.name.equalsIgnoreCase(name));
        if (taken) {
            throw ApiException.structured(409, "ERR-01-004", "CVM name already exists", "name", name,
                    "A CVM named '" + name + "' already exists in this workspace");
        }
    }

    private String generatedName(SimulatedApp app) {
        String base = app.name.length() > 57 ? app.name.substring(0, 57) : app.name;
        String name;
        do {
            name = base + "-" + Ids.nameSuffix();
        } while (findCvm(name).isPresent());
        return name;
    }

    private static Upstream upstream(SimulatedCvm cvm) {
        if (!RUNNING.equals(cvm.status) || !cvm.settled()) {
            return Upstream.NONE;
        }
        return cvm.healthy ? Upstream.HEALTHY : Upstream.UNHEALTHY;
    }

    private SimulatedCvm requireCvm(String ref) {
        return findCvm(ref).orElseThrow(() -> ApiException.notFound("CVM"));
    }

    private Optional<SimulatedCvm> findCvm(String ref) {
        if (ref == null || ref.isBlank()) {
            return Optional.empty();
        }
        String trimmed = ref.trim();
        Optional<SimulatedCvm> direct = cvms.values().stream().filter(cvm -> cvm.matches(trimmed)).findFirst();
        if (direct.isPresent()) {
            return direct;
        }
        Matcher hex = HEX_REF.matcher(trimmed);
        if (!hex.matches()) {
            return Optional.empty();
        }
        // the official SDK turns a 40-hex app_id or instance_id into app_<hex>: an instance, else the app's CVM
        String id = hex.group(1).toLowerCase();
        Optional<SimulatedCvm> instance = cvms.values().stream().filter(cvm -> id.equals(cvm.instanceId)).findFirst();
        if (instance.isPresent()) {
            return instance;
        }
        SimulatedApp app = apps.get(id);
        return app == null ? Optional.empty() : cvmsOf(app).stream().findFirst();
    }

    private CvmSnapshot snapshot(SimulatedCvm cvm) {
        SimulatedApp app = apps.get(cvm.appId);
        return views.snapshot(cvm, app == null ? null : app.envPubkey);
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private SimulatedApp requireApp(String appId) {
        SimulatedApp app = appId == null ? null : apps.get(appKey(appId));
        if (app == null) {
            throw ApiException.notFound("App");
        }
        return app;
    }

    private static String appKey(String appId) {
        String key = appId.trim().toLowerCase();
        return key.startsWith("app_") ? key.substring(4) : key;
    }

    private List<SimulatedCvm> cvmsOf(SimulatedApp app) {
        return app.cvmVmUuids.stream().map(cvms::get).filter(Objects::nonNull).toList();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    // ---------------------------------------------------------------- the state file

    private void persist() {
        if (store == null) {
            return;
        }
        try {
            store.save(new SimulatorState(SimulatorState.CURRENT_VERSION, List.copyOf(apps.values()),
                    List.copyOf(cvms.values()), List.copyOf(provisions.values()), journal.since(0),
                    journal.lastSeq(), lastCvmSeq));
        } catch (RuntimeException e) {
            log.warn("cannot save the simulator state to {}", store.file(), e);
        }
    }

    /** Loads the state file, if any, and completes every operation that was in flight when it was saved. */
    private synchronized void load() {
        Optional<SimulatorState> saved = store.load();
        if (saved.isEmpty()) {
            log.info("simulator state file {} does not exist yet; starting empty", store.file());
            return;
        }
        SimulatorState state = saved.get();
        state.apps().forEach(app -> apps.put(app.appId, app));
        state.cvms().forEach(cvm -> cvms.put(cvm.vmUuid, cvm));
        state.provisions().forEach(p -> provisions.put(p.appId(), p));
        journal.restore(state.events(), state.lastEventSeq());
        lastCvmSeq = Math.max(state.lastCvmSeq(), cvms.values().stream().mapToLong(cvm -> cvm.seq).max().orElse(0));
        for (SimulatedCvm cvm : cvms.values()) {
            if (cvm.seq <= 0) {
                cvm.seq = ++lastCvmSeq; // a file from before integer ids
            }
        }
        for (SimulatedApp app : apps.values()) {
            if (app.envPubkey == null) {
                app.envPubkey = Ids.hex(32);
            }
        }
        int completed = 0;
        for (SimulatedCvm cvm : List.copyOf(cvms.values())) {
            if (cvm.operation != null) {
                completed++;
            }
            while (cvm.operation != null) {
                step(cvm);
            }
        }
        log.info("simulator state loaded from {}: {} apps, {} CVMs, {} operations completed on load",
                store.file(), apps.size(), cvms.size(), completed);
        persist();
    }
}
