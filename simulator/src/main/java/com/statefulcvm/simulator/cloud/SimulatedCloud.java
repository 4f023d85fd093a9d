package com.statefulcvm.simulator.cloud;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

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

/**
 * The simulated Phala Cloud: apps, CVMs, revisions and pending provisions in memory, with asynchronous
 * lifecycles driven by a scheduler. Thread-safe: every public method runs under this object's lock and answers
 * immutable snapshots ({@link CvmSnapshot}, {@link AppSnapshot}, ...), the same whatever API version the caller
 * speaks. With a state file, every change is saved and the state is loaded (in-flight operations completed) at
 * construction.
 * <p>
 * The package-private collaborators it delegates to take no lock of their own: they are only ever called from here,
 * under this object's lock, or (the scheduled hops of {@link OperationRunner}) under the same lock taken again, so
 * the whole state still changes one step at a time.
 */
public class SimulatedCloud implements AutoCloseable {

    static final String KMS_TYPE = "phala";

    private final SimulatorProperties properties;
    private final EventJournal journal = new EventJournal();
    private final CvmDirectory directory = new CvmDirectory();
    private final CvmViews views;
    private final OperationRunner runner;
    private final RevisionHistory revisions;
    private final Provisioning provisioning;
    private final CvmUpdates updates;
    /** The two phases of on-chain KMS apps, shared by their updates and their new instances. */
    private final OnChainCommits onChain = new OnChainCommits();
    private final AppLeadership leadership;
    private final GatewayRoutes gateway;
    private final StateFile stateFile;
    private final WorkspaceQuota quota;

    public SimulatedCloud(SimulatorProperties properties) {
        this(properties, Clock.systemUTC());
    }

    public SimulatedCloud(SimulatorProperties properties, Clock clock) {
        this(properties, clock, CvmTransitionListener.NONE);
    }

    /**
     * @param listener told of every status change, from the ones the state file's in-flight operations make at load
     *                 on (see {@link CvmTransitionListener} for what it may do)
     */
    public SimulatedCloud(SimulatorProperties properties, Clock clock, CvmTransitionListener listener) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.quota = new WorkspaceQuota(properties.getQuota());
        this.views = new CvmViews(properties::getGatewayBaseDomain, clock);
        StateStore store = properties.getStateFile() == null ? null : new StateStore(properties.getStateFile());
        this.leadership = new AppLeadership(directory);
        this.runner = new OperationRunner(this, properties::getTimings, clock, directory, journal, leadership,
                this::persist, Objects.requireNonNull(listener, "listener"));
        this.revisions = new RevisionHistory(clock, directory, runner);
        this.provisioning = new Provisioning(clock, directory, revisions, runner, quota, onChain);
        this.updates = new CvmUpdates(directory, revisions, runner, onChain);
        this.gateway = new GatewayRoutes(directory, leadership);
        this.stateFile = new StateFile(store, directory, provisioning, journal);
        if (store != null) {
            load();
        }
    }

    // ---------------------------------------------------------------- create

    public synchronized ProvisionResult provision(ProvisionRequest request) {
        ProvisionResult result = provisioning.provision(request);
        persist();
        return result;
    }

    /** Commits a provision: creates the app and its first CVM, which then boots. */
    public synchronized CvmSnapshot commit(CommitRequest request) {
        SimulatedCvm cvm = provisioning.commit(request);
        persist();
        return snapshot(cvm);
    }

    /** A new named CVM under an existing app; without a compose it copies the app's current one. */
    public synchronized CvmSnapshot addInstance(String appId, InstanceRequest request) {
        SimulatedCvm cvm = provisioning.addInstance(appId, request);
        persist();
        return snapshot(cvm);
    }

    // ---------------------------------------------------------------- read

    public synchronized AppSnapshot app(String appId) {
        SimulatedApp app = directory.requireApp(appId);
        return views.app(app, directory.cvmsOf(app));
    }

    /**
     * Apps newest first, those with at least one CVM that passes {@code filter} (every app when null), one page.
     */
    public synchronized Page<AppSnapshot> apps(int page, int pageSize, Predicate<CvmSnapshot> filter) {
        checkPage(page, pageSize);
        List<AppSnapshot> all = new ArrayList<>();
        for (SimulatedApp app : directory.apps()) {
            AppSnapshot snapshot = views.app(app, directory.cvmsOf(app));
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
        for (SimulatedCvm cvm : directory.cvms()) {
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
        return snapshot(directory.requireCvm(ref));
    }

    public synchronized AttestationInfo attestation(String ref) {
        return AttestationBuilder.build(directory.requireCvm(ref));
    }

    /** What the guest agent reports about the machine: sizes from the instance type, usage made up but stable. */
    public synchronized CvmStats stats(String ref) {
        return StatsBuilder.build(snapshot(directory.requireCvm(ref)));
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
            directory.findCvm(ref).map(this::snapshot).ifPresent(cvm -> answer.put(ref, batch(cvm)));
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
        SimulatedApp app = directory.requireApp(appId);
        checkPage(page, pageSize);
        List<AppRevision> newestFirst = new ArrayList<>(app.revisions);
        Collections.reverse(newestFirst);
        Page<AppRevision> slice = Page.of(newestFirst, page, pageSize);
        return new Page<>(slice.map(this::revision), slice.total(), page, pageSize);
    }

    public synchronized RevisionSnapshot revision(String appId, String revisionId) {
        return revision(revisions.require(directory.requireApp(appId), revisionId));
    }

    private RevisionSnapshot revision(AppRevision revision) {
        return views.revision(revision, vmUuid -> {
            SimulatedCvm cvm = directory.cvm(vmUuid);
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
        SimulatedCvm cvm = directory.requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, type);
        runner.begin(cvm, type, null, Ids.uuid());
        persist();
        return snapshot(cvm);
    }

    /**
     * {@code PATCH /cvms/{id}/name}: {@code ref} must be the hashed {@code cvm_…} id (the Terraform provider's
     * {@code docs/design-notes/cvm-rename-endpoint.md}: not the vm_uuid, not the app id); 400 when the name is taken.
     */
    public synchronized void rename(String ref, String name) {
        SimulatedCvm cvm = directory.cvms().stream().filter(c -> c.id.equals(ref)).findFirst()
                .orElseThrow(() -> ApiException.notFound("CVM"));
        if (name == null) {
            throw ApiException.missing("name");
        }
        if (!CvmNames.valid(name)) {
            throw ApiException.unprocessable(List.of("body", "name"),
                    "Name must be 5-63 characters, start with letter, and contain only letters/numbers/hyphens",
                    "value_error");
        }
        if (!name.equals(cvm.name) && directory.nameTaken(name)) {
            throw ApiException.badRequest("CVM name \"" + name + "\" is already in use in this workspace");
        }
        cvm.name = name;
        persist();
    }

    // ---------------------------------------------------------------- KMS and quotas

    /** {@code GET /kms/{kms}/pubkey/{app_id}}: the app's env key and the KMS's signature over it. */
    public synchronized Map<String, String> envEncryptPubkey(String kms, String appId) {
        if (!SimulatedKms.isThisKms(kms) && !OnChainCommits.kmsInfo().id().equals(kms)
                && !OnChainCommits.kmsInfo().slug().equals(kms)) {
            throw ApiException.notFound("KMS");
        }
        if (appId == null || !appId.matches("^(0x)?[0-9a-fA-F]{40}$")) {
            throw ApiException.unprocessable(List.of("path", "app_id"),
                    "App ID must be exactly 40 characters or 42 characters with 0x prefix", "value_error");
        }
        return SimulatedKms.signedEnvPublicKey(appId.startsWith("0x") ? appId.substring(2) : appId);
    }

    /** {@code GET /workspaces/{slug}/quotas} (SDK {@code GetWorkspaceQuotasSchema}). */
    public synchronized Map<String, Object> quotas(String slug) {
        SimulatedAccount account = account();
        if (!account.workspaceSlug().equals(slug)) {
            throw ApiException.notFound("Workspace");
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("team_slug", account.workspaceSlug());
        answer.put("tier", account.tier());
        answer.put("quotas", quota.usage(directory));
        answer.put("reserved_nodes", Map.of("limit", 0, "remaining", 0));
        answer.put("reserved_gpu", Map.of("gpus", Map.of("limit", 0, "remaining", 0), "in_use", 0, "misconfigured", 0));
        answer.put("as_of", Instant.now().toString());
        return answer;
    }

    public WorkspaceQuota quota() {
        return quota;
    }

    /** Marks the app's KMS as on chain (its updates then need a registered compose hash) or off chain. */
    public synchronized AppSnapshot setOnChainKms(String appId, boolean enabled) {
        SimulatedApp app = directory.requireApp(appId);
        app.onChainKms = enabled;
        app.kmsType = enabled ? "base" : KMS_TYPE;
        onChain.clear();
        persist();
        return app(appId);
    }

    /**
     * Mines an {@code addComposeHash} transaction on the app's contract ({@link SimulatedChain}); {@code
     * transactionHash} null makes one up, an existing one is replaced.
     */
    public synchronized Map<String, Object> mineComposeHash(String appId, String composeHash, String transactionHash,
            boolean verifies, boolean expired) {
        directory.requireApp(appId);
        SimulatedChain.Transaction mined = onChain.mine(appId, composeHash, transactionHash, verifies, expired);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("transactionHash", mined.hash());
        answer.put("appId", mined.appId());
        answer.put("composeHash", mined.composeHash());
        answer.put("verifies", mined.verifies());
        answer.put("expired", mined.expired());
        return answer;
    }

    // ---------------------------------------------------------------- updates

    /** {@code composeHash}, {@code transactionHash}: the phase-2 headers of an on-chain KMS app, else null. */
    public synchronized UpdateOutcome updateCompose(String ref, String dockerComposeFile, String composeHash,
            String transactionHash) {
        return persistIfStarted(updates.updateCompose(ref, dockerComposeFile, composeHash, transactionHash));
    }

    /** Replaces the encrypted env; a new set of {@code env_keys} also changes the compose's {@code allowed_envs}. */
    public synchronized UpdateOutcome updateEnvs(String ref, EnvUpdateRequest request) {
        return persistIfStarted(updates.updateEnvs(ref, request));
    }

    /** Phase 2 of an on-chain KMS app's update: {@code POST /cvms/{id}/commit-update}. */
    public synchronized UpdateOutcome commitUpdate(String ref, String token, String composeHash, String transactionHash) {
        return persistIfStarted(updates.commitUpdate(ref, token, composeHash, transactionHash));
    }

    /** Rolls the chosen CVMs of the app to a revision's compose; CVMs already on it are left alone. */
    public synchronized UpdateOutcome redeploy(String appId, String revisionId, VmUuidsRequest request) {
        UpdateOutcome outcome = revisions.redeploy(appId, revisionId, request);
        persist();
        return outcome;
    }

    private UpdateOutcome persistIfStarted(UpdateOutcome outcome) {
        if (outcome.started()) {
            persist();
        }
        return outcome;
    }

    // ---------------------------------------------------------------- gateway and admin

    /** What the gateway finds behind {@code <instance_id|app_id>-<port>[s|g]}. */
    public synchronized Upstream gateway(String target) {
        return gateway.upstream(target);
    }

    /**
     * The CVM (instance route) or CVMs (app route) behind {@code <instance_id|app_id>-<port>[s|g]}, with the port; empty
     * when the route names no CVM or app.
     */
    public synchronized Optional<GatewayTarget> gatewayTarget(String target) {
        return gateway.target(target);
    }

    /** The names of the CVMs that run settled, oldest first. */
    public synchronized List<String> runningCvmNames() {
        return directory.cvms().stream()
                .filter(cvm -> CvmLifecycle.RUNNING.equals(cvm.status) && cvm.settled())
                .map(cvm -> cvm.name)
                .toList();
    }

    /**
     * What the workload behind {@code <instance_id|app_id>-<port>[s|g]} answers to Patroni's {@code GET /leader}.
     * Asking may elect the app's leader ({@link AppLeadership}). Such an election is not saved by itself: it is the
     * state's own consequence (the first running CVM by name), so a reload elects the same CVM again.
     */
    public synchronized RoleAnswer gatewayRole(String target) {
        return gateway.role(target);
    }

    /** The CVM's role as it stands, electing its app's leader if it has none; {@link CvmRole#appLeader()} null if none. */
    public synchronized CvmRole role(String ref) {
        return roleOf(directory.requireCvm(ref));
    }

    /** Makes the CVM its app's leader, the app's other CVMs replicas; 409 unless it runs settled. */
    public synchronized CvmRole makeLeader(String ref) {
        SimulatedCvm cvm = directory.requireCvm(ref);
        leadership.makeLeader(cvm);
        persist();
        return roleOf(cvm);
    }

    private CvmRole roleOf(SimulatedCvm cvm) {
        SimulatedApp app = directory.app(cvm.appId);
        SimulatedCvm leader = app == null ? null : leadership.leaderOf(app);
        return new CvmRole(snapshot(cvm), leader == cvm, leader == null ? null : leader.name);
    }

    // ---------------------------------------------------------------- simulated workloads (AppLeadership)

    /**
     * The app's workload as the route {@code <instance_id|app_id>-<port>[s|g]} reaches it; empty when the route names
     * no CVM and no app. Asking may let CVMs that run join, or elect a leader: the state's own consequences, saved
     * when they changed something.
     */
    public synchronized Optional<WorkloadView> workload(String target) {
        SimulatedApp app = gateway.app(target);
        long index = app == null ? 0 : app.workloadIndex;
        Optional<WorkloadView> view = gateway.workload(target);
        if (app != null && app.workloadIndex != index) {
            persist();
        }
        return view;
    }

    /**
     * The compose's hold-back agent on the CVM the route asks: the seqno it holds back with (Galera's grastate.dat);
     * empty once its workload was released, or when it is no member.
     */
    public synchronized Optional<Long> heldBackSeqno(String target) {
        SimulatedCvm asked = askedCvm(target);
        return leadership.heldBackSeqno(workloadApp(target), asked);
    }

    /** The hold-back agent's release: the CVM's workload starts (a released one stays released). */
    public synchronized void releaseHeldBack(String target) {
        SimulatedCvm asked = askedCvm(target);
        leadership.release(workloadApp(target), asked);
        persist();
    }

    /**
     * The agent's drain ({@code desynced} true: wsrep_desync, client queries refused) or resume of the CVM the route
     * asks; false when there was nothing to change (held back, or no member).
     */
    public synchronized boolean desyncWorkload(String target, boolean desynced) {
        SimulatedCvm asked = askedCvm(target);
        boolean changed = leadership.desync(workloadApp(target), asked, desynced);
        persist();
        return changed;
    }

    /** Whether the agent drained the CVM the route asks (until resumed or stopped). */
    public synchronized boolean workloadDesynced(String target) {
        SimulatedCvm asked = gateway.asked(target);
        return asked != null && leadership.desynced(workloadApp(target), asked);
    }

    /** Patroni's {@code POST /switchover}; answers the new leader's name. */
    public synchronized String switchover(String target, String leader, String candidate) {
        String to = leadership.switchover(workloadApp(target), leader, candidate);
        persist();
        return to;
    }

    /** Patroni's {@code POST /failover}; answers the new leader's name. */
    public synchronized String failover(String target, String candidate) {
        String to = leadership.failover(workloadApp(target), candidate);
        persist();
        return to;
    }

    /**
     * Consul's transfer-leader and etcd's transfer-leadership: to the running voter {@code to} matches, or (null) to
     * the first other one; {@code refusal} is the workload's text when there is none. Answers the new leader's name.
     */
    public synchronized String transferLeadership(String target, Predicate<WorkloadMember> to, String refusal) {
        String leader = leadership.transferLeadership(workloadApp(target), to, refusal);
        persist();
        return leader;
    }

    /** Consul's {@code PUT /v1/agent/leave}: the CVM asked leaves the workload until its next boot. */
    public synchronized void leaveWorkload(String target) {
        SimulatedCvm asked = askedCvm(target);
        leadership.leave(workloadApp(target), asked);
        persist();
    }

    /** etcd's member add: announced now, claimed by the CVM of the app that starts next (see {@link AppLeadership}). */
    public synchronized WorkloadMember addWorkloadMember(String target, List<String> peerUrls, boolean learner) {
        WorkloadMember added = leadership.add(workloadApp(target), peerUrls, learner);
        persist();
        return added;
    }

    /** etcd's member promote. */
    public synchronized void promoteWorkloadMember(String target, String memberId) {
        leadership.promote(workloadApp(target), memberId);
        persist();
    }

    /** etcd's member remove. */
    public synchronized void removeWorkloadMember(String target, String memberId) {
        leadership.remove(workloadApp(target), memberId);
        persist();
    }

    /** The CVM a workload call on the route reaches; 502 {@code no upstream} when none runs. */
    private SimulatedCvm askedCvm(String target) {
        SimulatedCvm asked = gateway.asked(target);
        if (asked == null) {
            throw new WorkloadRefusal(502, "no upstream");
        }
        return asked;
    }

    private SimulatedApp workloadApp(String target) {
        SimulatedApp app = gateway.app(target);
        if (app == null) {
            throw new WorkloadRefusal(502, "no upstream");
        }
        return app;
    }

    /** The CVM stops at once (no shutdown), cancelling whatever it was doing; it stays stopped until started. */
    public synchronized CvmSnapshot crash(String ref) {
        SimulatedCvm cvm = directory.requireCvm(ref);
        runner.crash(cvm);
        persist();
        return snapshot(cvm);
    }

    /** Marks the workload healthy or not; sticky across restarts and updates. */
    public synchronized CvmSnapshot setHealthy(String ref, boolean healthy) {
        SimulatedCvm cvm = directory.requireCvm(ref);
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
        directory.clear();
        provisioning.clear();
        journal.clear();
        quota.reset();
        onChain.reset();
        persist();
    }

    @Override
    public void close() {
        runner.close();
    }

    // ---------------------------------------------------------------- helpers

    private CvmSnapshot snapshot(SimulatedCvm cvm) {
        SimulatedApp app = directory.app(cvm.appId);
        return views.snapshot(cvm, app == null ? null : app.envPubkey);
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private void persist() {
        stateFile.save();
    }

    /** Under the lock, as every change is, though no one else can see this cloud yet. */
    private synchronized void load() {
        stateFile.load(runner::completeInFlight);
    }
}
