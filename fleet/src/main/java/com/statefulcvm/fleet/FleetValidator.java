package com.statefulcvm.fleet;

import com.statefulcvm.fleet.hooks.Hooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a bound fleet definition and names every bad field as {@code replicaSets[i] (name): field: problem}, so an
 * operator can fix the file without reading a stack trace.
 */
public class FleetValidator {

    /** Phala's CVM name rule; every slot name must satisfy it. */
    private static final Pattern CVM_NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9-]{4,62}$");
    private static final Pattern SET_NAME = Pattern.compile("^[a-z][a-z0-9-]*[a-z0-9]$");
    private static final Pattern APP_ID = Pattern.compile("^(app_)?[0-9a-f]{40}$");
    public static final int MAX_REPLICAS = 100;

    private final Set<String> workloadTypes;
    private final WorkloadCatalog catalog;
    private final boolean missingAppsMayBeCreated;
    private final boolean platformPinned;
    private final Path baseDir;

    /**
     * @param workloadTypes           the workload types a set may name (their descriptors are the built-in ones)
     * @param missingAppsMayBeCreated true where the deployment creates apps for sets without {@code appId}
     * @param baseDir                 what relative {@code composeFile} paths are resolved against
     */
    public FleetValidator(Set<String> workloadTypes, boolean missingAppsMayBeCreated, Path baseDir) {
        this(workloadTypes, missingAppsMayBeCreated, baseDir, false);
    }

    /**
     * @param platformPinned true with the real Phala Cloud (the {@code phala} profile): every set that requires
     *                       attestation must pin its platforms (MRTD, RTMR0-2) and its KMS key; "any" is for the simulator
     */
    public FleetValidator(Set<String> workloadTypes, boolean missingAppsMayBeCreated, Path baseDir, boolean platformPinned) {
        this(WorkloadCatalog.BUILT_IN, workloadTypes, missingAppsMayBeCreated, baseDir, platformPinned);
    }

    /**
     * @param catalog       the descriptors of the types, built in and configured
     * @param workloadTypes the types of {@code catalog} a set may name: those whose procedures are deployed
     */
    public FleetValidator(WorkloadCatalog catalog, Set<String> workloadTypes, boolean missingAppsMayBeCreated, Path baseDir,
                          boolean platformPinned) {
        this.catalog = catalog;
        this.workloadTypes = Set.copyOf(workloadTypes);
        this.missingAppsMayBeCreated = missingAppsMayBeCreated;
        this.baseDir = baseDir;
        this.platformPinned = platformPinned;
    }

    public List<String> validate(FleetDefinition fleet) {
        List<String> problems = new ArrayList<>();
        if (fleet.getReplicaSets() == null || fleet.getReplicaSets().isEmpty()) {
            problems.add("replicaSets: at least one replica set is required");
            return problems;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fleet.getReplicaSets().size(); i++) {
            ReplicaSetSpec set = fleet.getReplicaSets().get(i);
            Problems p = new Problems(problems, "replicaSets[" + i + "]" + (set.getName() == null ? "" : " (" + set.getName() + ")"));
            validateSet(set, p);
            if (set.getName() != null && !seen.add(set.getName())) {
                p.add("name", "is used by another replica set");
            }
        }
        return problems;
    }

    /** Validates and throws one exception listing every problem. */
    public void check(FleetDefinition fleet) {
        List<String> problems = validate(fleet);
        if (!problems.isEmpty()) {
            throw new FleetDefinitionException(problems);
        }
    }

    private void validateSet(ReplicaSetSpec set, Problems p) {
        if (isBlank(set.getName())) {
            p.add("name", "is required");
        } else if (!SET_NAME.matcher(set.getName()).matches()) {
            p.add("name", "must be lower-case letters, digits and '-', starting with a letter (was '" + set.getName() + "')");
        } else if (!CVM_NAME.matcher(set.slotName(Math.max(0, Math.max(set.getReplicas(), maxScaled(set)) - 1 + surgeSlots(set)))).matches()) {
            p.add("name", "gives slot names such as '" + set.slotName(0) + "' that Phala rejects: a CVM name has 5 to 63 characters");
        }
        if (isBlank(set.getAppId())) {
            if (!missingAppsMayBeCreated) {
                p.add("appId", "is required: this deployment does not create apps (orchestrator.bootstrap.create-missing-apps is false)");
            }
        } else if (!APP_ID.matcher(set.getAppId()).matches()) {
            p.add("appId", "must be 40 hex characters, optionally prefixed 'app_' (was '" + set.getAppId() + "')");
        }
        if (set.getReplicas() < 1 || set.getReplicas() > MAX_REPLICAS) {
            p.add("replicas", "must be between 1 and " + MAX_REPLICAS + " (was " + set.getReplicas() + ")");
        }
        if (isBlank(set.getWorkloadType())) {
            p.add("workloadType", "is required; one of " + sorted(workloadTypes));
        } else if (!workloadTypes.contains(set.getWorkloadType())) {
            p.add("workloadType", "unknown workload type '" + set.getWorkloadType() + "'; known: " + sorted(workloadTypes));
        }
        validateCompose(set, p);
        if (isBlank(set.getInstanceType())) {
            p.add("instanceType", "is required, e.g. tdx.small");
        }
        if (set.getDiskSize() < 1) {
            p.add("diskSize", "must be at least 1 (GB) (was " + set.getDiskSize() + ")");
        }
        updatePolicyProblems(set.getUpdatePolicy(), set.getReplicas()).forEach(p::add);
        roleProbeProblems(set, set.getUpdatePolicy(), catalog).forEach(p::add);
        validateHealthCheck(set.getHealthCheck(), p);
        if (set.getApprovals() == null) {
            p.add("approvals", "is required");
        }
        validateAttestation(set.getAttestation(), p);
        validateHooks(set, p);
        com.statefulcvm.fleet.AutoHealing.problems(set.getAutoHealing(), set.getReplicas()).forEach(p::add);
        com.statefulcvm.fleet.failover.Failover.problems(set.getFailover()).forEach(p::add);
        com.statefulcvm.fleet.scaling.Scaling.problems(set.getScaling(), set.getReplicas(), MAX_REPLICAS).forEach(p::add);
        com.statefulcvm.fleet.lightsout.LightsOut.problems(set.getLightsOut()).forEach(p::add);
        validateInstances(set, p);
        SlotMembers.problems(set.getName(), set.getMembers()).forEach(p::add);
        if (set.getEnvEncryptPublicKey() != null && !set.getEnvEncryptPublicKey().matches("^(0x)?[0-9a-fA-F]{64}$")) {
            p.add("envEncryptPublicKey", "must be the app's X25519 public key, 64 hex characters (was '" + set.getEnvEncryptPublicKey() + "')");
        }
    }

    /**
     * Overrides name slots by ordinal; a slot a scale may add can have one too (its CVM is created with it), so the
     * bound is the set's scale maximum ({@code scaling.maxReplicas}), never below the replicas.
     */
    private static void validateInstances(ReplicaSetSpec set, Problems p) {
        List<InstanceOverride> overrides = set.getInstances() == null ? List.of() : set.getInstances();
        int limit = Math.max(set.getReplicas(), maxScaled(set));
        String why = limit > set.getReplicas() ? "replicas " + set.getReplicas() + ", scaling.maxReplicas " + limit
                : "replicas " + set.getReplicas();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < overrides.size(); i++) {
            InstanceOverride override = overrides.get(i);
            String at = "instances[" + i + "]";
            if (override == null) {
                p.add(at, "is empty");
                continue;
            }
            override.problems(limit, why).forEach(problem -> p.add(at + "." + problem));
            if (override.getOrdinal() != null && !seen.add(override.getOrdinal())) {
                p.add(at + ".ordinal", override.getOrdinal() + " has another override in this set; give each slot one");
            }
        }
    }

    /** The most replicas a scale may give the set: its slot names must be valid CVM names too. */
    private static int maxScaled(ReplicaSetSpec set) {
        return set.getScaling() == null ? 0 : set.getScaling().maxReplicasFor(set.getReplicas(), MAX_REPLICAS);
    }

    private void validateHooks(ReplicaSetSpec set, Problems p) {
        Hooks hooks = set.getHooks();
        if (hooks == null) {
            p.add("hooks", "is required");
            return;
        }
        if (hooks.getTimeoutSeconds() < 1) {
            p.add("hooks.timeoutSeconds", "must be at least 1 (was " + hooks.getTimeoutSeconds() + ")");
        }
        if (hooks.getDefaultResult() == null) {
            p.add("hooks.defaultResult", "is required: CONTINUE or ABANDON");
        }
        if (hooks.getAdminPort() < 0 || hooks.getAdminPort() > 65535) {
            p.add("hooks.adminPort", "must be between 1 and 65535, or 0 for the workload type's default (was " + hooks.getAdminPort() + ")");
        }
        if (hooks.getMaxLagBytes() < 0) {
            p.add("hooks.maxLagBytes", "must not be negative (was " + hooks.getMaxLagBytes() + ")");
        }
        if (hooks.getPreStop() != null && hooks.getPreStop().isSet()) {
            if (hooks.getPreStop().getPort() > 65535) {
                p.add("hooks.preStop.port", "must be between 1 and 65535 (was " + hooks.getPreStop().getPort() + ")");
            }
            if (hooks.getPreStop().getPath() == null || !hooks.getPreStop().getPath().startsWith("/")) {
                p.add("hooks.preStop.path", "must start with '/' (was '" + hooks.getPreStop().getPath() + "')");
            }
        }
    }

    private static final Pattern HEX = Pattern.compile("^(0x)?[0-9a-fA-F]+$");

    /** A TD measurement (MRTD, RTMRn): 48 bytes as 96 hex characters. */
    private static void measurement(String value, String field, Problems p) {
        if (value == null || !HEX.matcher(value).matches() || value.replace("0x", "").length() != 96) {
            p.add(field, "must be 96 hex characters (48 bytes) (was " + (value == null ? "missing" : "'" + value + "'") + ")");
        }
    }

    private void validateAttestation(AttestationSpec attestation, Problems p) {
        if (attestation == null) {
            p.add("attestation", "is required");
            return;
        }
        // a list left empty in the file may arrive as null: the same as empty
        List<String> kmsKeyIds = attestation.getKmsKeyIds() == null ? List.of() : attestation.getKmsKeyIds();
        List<String> osImageHashes = attestation.getOsImageHashes() == null ? List.of() : attestation.getOsImageHashes();
        List<String> tcbStatuses = attestation.getAcceptedTcbStatuses() == null ? List.of() : attestation.getAcceptedTcbStatuses();
        for (int i = 0; i < kmsKeyIds.size(); i++) {
            if (!HEX.matcher(String.valueOf(kmsKeyIds.get(i))).matches()) {
                p.add("attestation.kmsKeyIds[" + i + "]", "must be hex (was '" + kmsKeyIds.get(i) + "')");
            }
        }
        for (int i = 0; i < osImageHashes.size(); i++) {
            String hash = String.valueOf(osImageHashes.get(i));
            if (!HEX.matcher(hash).matches() || hash.replace("0x", "").length() != 64) {
                p.add("attestation.osImageHashes[" + i + "]", "must be 64 hex characters (was '" + hash + "')");
            }
        }
        List<PlatformMeasurements> platforms = attestation.getPlatforms() == null ? List.of() : attestation.getPlatforms();
        for (int i = 0; i < platforms.size(); i++) {
            PlatformMeasurements platform = platforms.get(i);
            measurement(platform == null ? null : platform.getMrtd(), "attestation.platforms[" + i + "].mrtd", p);
            measurement(platform == null ? null : platform.getRtmr0(), "attestation.platforms[" + i + "].rtmr0", p);
            measurement(platform == null ? null : platform.getRtmr1(), "attestation.platforms[" + i + "].rtmr1", p);
            measurement(platform == null ? null : platform.getRtmr2(), "attestation.platforms[" + i + "].rtmr2", p);
        }
        if (platformPinned && attestation.isRequired()) {
            if (platforms.isEmpty()) {
                p.add("attestation.platforms", "must pin at least one platform (mrtd, rtmr0, rtmr1, rtmr2 of the OS image the set runs)"
                        + " with the real Phala Cloud; any platform is accepted only with the built-in simulator");
            }
            if (kmsKeyIds.isEmpty()) {
                p.add("attestation.kmsKeyIds", "must pin the KMS key with the real Phala Cloud; any key provider named kms is"
                        + " accepted only with the built-in simulator");
            }
        }
        if (attestation.getOnFailure() == null) {
            p.add("attestation.onFailure", "is required: one of stop, drain");
        }
        if (tcbStatuses.isEmpty()) {
            p.add("attestation.acceptedTcbStatuses", "must name at least one status, e.g. UpToDate");
        }
        for (int i = 0; i < tcbStatuses.size(); i++) {
            String status = tcbStatuses.get(i);
            if (!AttestationSpec.TCB_STATUSES.contains(status)) {
                p.add("attestation.acceptedTcbStatuses[" + i + "]", "unknown or never acceptable TCB status '" + status
                        + "'; one of " + AttestationSpec.TCB_STATUSES);
            }
        }
    }

    private void validateCompose(ReplicaSetSpec set, Problems p) {
        boolean inline = !isBlank(set.getDockerCompose());
        boolean file = !isBlank(set.getComposeFile());
        if (inline == file) {
            p.add("dockerCompose", "give exactly one of dockerCompose (inline YAML) or composeFile (a path)");
            return;
        }
        // the compose the bootstrap creates CVMs with and heals replace them with: checked as a rollout's is
        if (inline) {
            ComposeCheck.problem(set.getDockerCompose()).ifPresent(problem -> p.add("dockerCompose", problem.toString()));
        }
        if (file) {
            Path path;
            try {
                path = baseDir.resolve(set.getComposeFile());
            } catch (InvalidPathException e) {
                p.add("composeFile", "is not a file name: " + e.getReason());
                return;
            }
            // a directory is readable too, but it is no compose file
            if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
                p.add("composeFile", "cannot read '" + path + "'");
                return;
            }
            try {
                String text = Files.readString(path);
                ComposeCheck.problem(text).ifPresent(problem -> p.add("composeFile", "'" + path + "': " + problem));
            } catch (IOException | UncheckedIOException e) {
                p.add("composeFile", "cannot read '" + path + "': " + e.getMessage());
            }
        }
    }

    /**
     * Every problem of an update policy for a set of {@code replicas}, each as {@code updatePolicy.<field>: problem}.
     * What needs the rest of the set (the role probe of a role-aware order) is checked by {@link #validate}.
     */
    public List<String> validateUpdatePolicy(UpdatePolicy policy, int replicas) {
        return updatePolicyProblems(policy, replicas);
    }

    /** {@link #validateUpdatePolicy} for callers without a validator (a per-rollout override, the planner). */
    public static List<String> updatePolicyProblems(UpdatePolicy policy, int replicas) {
        List<String> problems = new ArrayList<>();
        Problems p = new Problems(problems, null);
        if (policy == null) {
            p.add("updatePolicy", "is required");
            return problems;
        }
        required(policy.getType(), UpdateType.class, "updatePolicy.type", p);
        required(policy.getMinimalAction(), UpdateAction.class, "updatePolicy.minimalAction", p);
        required(policy.getMostDisruptiveAllowedAction(), UpdateAction.class, "updatePolicy.mostDisruptiveAllowedAction", p);
        if (policy.getMinimalAction() != null && policy.getMostDisruptiveAllowedAction() != null
                && policy.getMinimalAction().exceeds(policy.getMostDisruptiveAllowedAction())) {
            p.add("updatePolicy.minimalAction", "minimalAction " + policy.getMinimalAction()
                    + " exceeds mostDisruptiveAllowedAction " + policy.getMostDisruptiveAllowedAction());
        }
        FixedOrPercent unavailable = fixedOrPercent(policy.getMaxUnavailable(), "updatePolicy.maxUnavailable", p);
        FixedOrPercent surge = fixedOrPercent(policy.getMaxSurge(), "updatePolicy.maxSurge", p);
        // Given as 0 both: every wave would be empty. A percentage that only rounds to 0 for this many replicas is
        // fine: resolvedMaxUnavailable then allows one, as Kubernetes does.
        if (unavailable != null && surge != null && unavailable.value() == 0 && surge.value() == 0) {
            p.add("updatePolicy.maxUnavailable", "maxUnavailable and maxSurge are both 0: no instance could ever be updated");
        }
        if (surge != null && surge.resolve(replicas, true) > Math.max(replicas, 0)) {
            p.add("updatePolicy.maxSurge", "must not exceed replicas (" + replicas + ") (was " + surge + ")");
        }
        if (policy.getPartition() < 0 || policy.getPartition() > Math.max(replicas, 0)) {
            p.add("updatePolicy.partition", "must be between 0 and replicas (" + replicas + ") (was " + policy.getPartition() + ")");
        }
        if (policy.getMinReadySeconds() < 0) {
            p.add("updatePolicy.minReadySeconds", "must not be negative (was " + policy.getMinReadySeconds() + ")");
        }
        required(policy.getOrder(), RolloutOrder.class, "updatePolicy.order", p);
        if (policy.getProgressDeadlineSeconds() < 1) {
            p.add("updatePolicy.progressDeadlineSeconds", "must be at least 1 (was " + policy.getProgressDeadlineSeconds() + ")");
        } else if (policy.getProgressDeadlineSeconds() <= policy.getMinReadySeconds()) {
            p.add("updatePolicy.progressDeadlineSeconds", "must be longer than minReadySeconds ("
                    + policy.getMinReadySeconds() + "), or no instance could ever pass (was " + policy.getProgressDeadlineSeconds() + ")");
        }
        required(policy.getOnFailure(), FailurePolicy.class, "updatePolicy.onFailure", p);
        return problems;
    }

    /**
     * The role probe of a set, and whether a role-aware order has one: patroni's default is {@code GET /leader} on
     * 8008, any other workload type must name its own. Entries as {@code field: problem}.
     */
    public static List<String> roleProbeProblems(ReplicaSetSpec set, UpdatePolicy policy) {
        return roleProbeProblems(set, policy, null);
    }

    /** @param catalog where the set's type is described; null: the one the set was resolved in at start */
    private static List<String> roleProbeProblems(ReplicaSetSpec set, UpdatePolicy policy, WorkloadCatalog catalog) {
        List<String> problems = new ArrayList<>();
        Problems p = new Problems(problems, null);
        RoleProbe probe = set.getRoleProbe();
        if (probe != null && probe.getPort() != 0) {
            if (probe.getPort() < 1 || probe.getPort() > 65535) {
                p.add("roleProbe.port", "must be between 1 and 65535 (was " + probe.getPort() + ")");
            }
            if (probe.getPath() == null || !probe.getPath().startsWith("/")) {
                p.add("roleProbe.path", "must start with '/' (was '" + probe.getPath() + "')");
            }
        }
        boolean typeProbes = typeOf(set, catalog).map(t -> t.getRoleProbe() != null && t.getRoleProbe().isSet()).orElse(false);
        if (policy != null && policy.getOrder() == RolloutOrder.ROLE_AWARE && (probe == null || !probe.isSet()) && !typeProbes) {
            p.add("updatePolicy.order", "role-aware needs roleProbe (port, path) for workload type '" + set.getWorkloadType()
                    + "', whose descriptor has none (patroni's asks GET /leader on 8008)");
        }
        return problems;
    }

    private static Optional<WorkloadType> typeOf(ReplicaSetSpec set, WorkloadCatalog catalog) {
        if (catalog != null) {
            return catalog.find(set.getWorkloadType());
        }
        try {
            return Optional.of(set.workload());
        } catch (IllegalArgumentException unknown) {
            return Optional.empty();   // said as the set's workloadType problem
        }
    }

    /** How many surge slots (ordinals from replicas on) a rollout may add; 0 when maxSurge is unusable. */
    private static int surgeSlots(ReplicaSetSpec set) {
        try {
            int surge = FixedOrPercent.parse(set.getUpdatePolicy().getMaxSurge()).resolve(set.getReplicas(), true);
            return Math.min(Math.max(surge, 0), Math.max(set.getReplicas(), 0));
        } catch (RuntimeException unusable) {
            return 0;
        }
    }

    private static FixedOrPercent fixedOrPercent(String text, String field, Problems p) {
        try {
            return FixedOrPercent.parse(text);
        } catch (IllegalArgumentException bad) {
            p.add(field, bad.getMessage());
            return null;
        }
    }

    private static <E extends Enum<E>> void required(E value, Class<E> type, String field, Problems p) {
        if (value == null) {
            p.add(field, "is required: one of " + fileNames(type));
        }
    }

    /** An enum constant as the fleet file spells it: {@code ROLE_AWARE} is {@code role-aware}. */
    static String fileName(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    static String fileNames(Class<? extends Enum<?>> type) {
        return String.join(", ", java.util.Arrays.stream(type.getEnumConstants()).map(FleetValidator::fileName).toList());
    }

    private void validateHealthCheck(HealthCheck check, Problems p) {
        if (check == null) {
            p.add("healthCheck", "is required");
            return;
        }
        HealthCheck.Http http = check.getHttp();
        if (http == null) {
            p.add("healthCheck.http", "is required");
        } else {
            if (http.getPort() < 1 || http.getPort() > 65535) {
                p.add("healthCheck.http.port", "must be between 1 and 65535 (was " + http.getPort() + ")");
            }
            if (http.getPath() == null || !http.getPath().startsWith("/")) {
                p.add("healthCheck.http.path", "must start with '/' (was '" + http.getPath() + "')");
            }
            if (http.getExpectStatus() < 100 || http.getExpectStatus() > 599) {
                p.add("healthCheck.http.expectStatus", "must be an HTTP status 100..599 (was " + http.getExpectStatus() + ")");
            }
        }
        if (check.getIntervalSeconds() < 1) {
            p.add("healthCheck.intervalSeconds", "must be at least 1 (was " + check.getIntervalSeconds() + ")");
        }
        if (check.getTimeoutSeconds() < 1) {
            p.add("healthCheck.timeoutSeconds", "must be at least 1 (was " + check.getTimeoutSeconds() + ")");
        } else if (check.getIntervalSeconds() >= 1 && check.getTimeoutSeconds() > check.getIntervalSeconds()) {
            p.add("healthCheck.timeoutSeconds", "must not exceed intervalSeconds (" + check.getIntervalSeconds()
                    + "), or probes would overlap (was " + check.getTimeoutSeconds() + ")");
        }
        if (check.getHealthyThreshold() < 1) {
            p.add("healthCheck.healthyThreshold", "must be at least 1 (was " + check.getHealthyThreshold() + ")");
        }
        if (check.getUnhealthyThreshold() < 1) {
            p.add("healthCheck.unhealthyThreshold", "must be at least 1 (was " + check.getUnhealthyThreshold() + ")");
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }

    /** Collects {@code prefix: field: problem}; without a prefix, {@code field: problem}. */
    private record Problems(List<String> sink, String prefix) {
        void add(String field, String problem) {
            add(field + ": " + problem);
        }

        void add(String fieldAndProblem) {
            sink.add(prefix == null ? fieldAndProblem : prefix + ": " + fieldAndProblem);
        }
    }
}
