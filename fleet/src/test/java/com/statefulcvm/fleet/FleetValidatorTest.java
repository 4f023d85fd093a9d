package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class FleetValidatorTest {

    private static final Set<String> TYPES = Set.of("generic", "patroni", "etcd", "consul");
    private final FleetValidator validator = new FleetValidator(TYPES, true, Path.of("."));

    static ReplicaSetSpec validSet(String name) {
        ReplicaSetSpec set = new ReplicaSetSpec();
        set.setName(name);
        set.setReplicas(3);
        set.setWorkloadType("generic");
        set.setDockerCompose("services:\n  web:\n    image: nginx:1.27\n");
        return set;
    }

    static FleetDefinition fleetOf(ReplicaSetSpec... sets) {
        FleetDefinition fleet = new FleetDefinition();
        fleet.setReplicaSets(List.of(sets));
        return fleet;
    }

    /**
     * Issue 20: with the real Phala Cloud every set that requires attestation pins its platforms (MRTD, RTMR0-2) and KMS
     * key; "any" is for the built-in simulator, where the same set passes.
     */
    @Test
    void withoutTheSimulatorPlatformsAndTheKmsKeyMustBePinned() {
        FleetValidator phala = new FleetValidator(TYPES, false, Path.of("."), true);
        ReplicaSetSpec unpinned = validSet("webdemo");
        unpinned.setAppId("app_" + "ab".repeat(20));
        assertThat(validator.validate(fleetOf(unpinned))).as("the simulator accepts any").isEmpty();
        assertThat(phala.validate(fleetOf(unpinned))).containsExactly(
                "replicaSets[0] (webdemo): attestation.platforms: must pin at least one platform (mrtd, rtmr0, rtmr1, rtmr2 of the OS"
                        + " image the set runs) with the real Phala Cloud; any platform is accepted only with the built-in simulator",
                "replicaSets[0] (webdemo): attestation.kmsKeyIds: must pin the KMS key with the real Phala Cloud; any key provider"
                        + " named kms is accepted only with the built-in simulator");
        unpinned.getAttestation().setPlatforms(List.of(new PlatformMeasurements("dstack-0.5.3", "a1".repeat(48), "b2".repeat(48),
                "c3".repeat(48), "d4".repeat(24))));
        unpinned.getAttestation().setKmsKeyIds(List.of("ef".repeat(20)));
        assertThat(phala.validate(fleetOf(unpinned))).containsExactly(
                "replicaSets[0] (webdemo): attestation.platforms[0].rtmr2: must be 96 hex characters (48 bytes) (was '" + "d4".repeat(24) + "')");
        unpinned.getAttestation().getPlatforms().get(0).setRtmr2("d4".repeat(48));
        assertThat(phala.validate(fleetOf(unpinned))).isEmpty();
        unpinned.getAttestation().setPlatforms(List.of());
        unpinned.getAttestation().setRequired(false);
        assertThat(phala.validate(fleetOf(unpinned))).as("nothing to pin without attestation").isEmpty();
    }

    @Test
    void acceptsAValidFleet() {
        assertThat(validator.validate(fleetOf(validSet("webdemo"), validSet("patroni-demo")))).isEmpty();
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> badFields() {
        return Stream.of(
                arguments("name", (Consumer<ReplicaSetSpec>) s -> s.setName(null)),
                arguments("name", (Consumer<ReplicaSetSpec>) s -> s.setName("Web_Demo")),
                arguments("name", (Consumer<ReplicaSetSpec>) s -> s.setName("ab")),
                arguments("appId", (Consumer<ReplicaSetSpec>) s -> s.setAppId("app_xyz")),
                arguments("replicas", (Consumer<ReplicaSetSpec>) s -> s.setReplicas(0)),
                arguments("replicas", (Consumer<ReplicaSetSpec>) s -> s.setReplicas(101)),
                arguments("workloadType", (Consumer<ReplicaSetSpec>) s -> s.setWorkloadType("mongodb")),
                arguments("workloadType", (Consumer<ReplicaSetSpec>) s -> s.setWorkloadType("")),
                arguments("dockerCompose", (Consumer<ReplicaSetSpec>) s -> s.setDockerCompose(" ")),
                arguments("dockerCompose", (Consumer<ReplicaSetSpec>) s -> s.setComposeFile("compose.yaml")),
                arguments("dockerCompose", (Consumer<ReplicaSetSpec>) s -> s.setDockerCompose("this is: [not valid yaml")),
                arguments("dockerCompose", (Consumer<ReplicaSetSpec>) s -> s.setDockerCompose("services:\n  web:\n    ports: [\"80:80\"]\n")),
                arguments("instanceType", (Consumer<ReplicaSetSpec>) s -> s.setInstanceType("")),
                arguments("diskSize", (Consumer<ReplicaSetSpec>) s -> s.setDiskSize(0)),
                arguments("updatePolicy", (Consumer<ReplicaSetSpec>) s -> s.setUpdatePolicy(null)),
                arguments("updatePolicy.maxUnavailable", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMaxUnavailable("0")),
                arguments("updatePolicy.maxUnavailable", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMaxUnavailable("abc")),
                arguments("updatePolicy.maxSurge", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMaxSurge("4")),
                arguments("updatePolicy.maxSurge", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMaxSurge("101%")),
                arguments("updatePolicy.partition", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setPartition(4)),
                arguments("updatePolicy.type", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setType(null)),
                arguments("updatePolicy.minimalAction", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMinimalAction(UpdateAction.REPLACE)),
                arguments("updatePolicy.mostDisruptiveAllowedAction", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMostDisruptiveAllowedAction(null)),
                arguments("updatePolicy.onFailure", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setOnFailure(null)),
                arguments("updatePolicy.order", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setOrder(RolloutOrder.ROLE_AWARE)),
                arguments("roleProbe.port", (Consumer<ReplicaSetSpec>) s -> s.getRoleProbe().setPort(70000)),
                arguments("roleProbe.path", (Consumer<ReplicaSetSpec>) s -> {
                    s.getRoleProbe().setPort(8008);
                    s.getRoleProbe().setPath("leader");
                }),
                arguments("updatePolicy.minReadySeconds", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setMinReadySeconds(-1)),
                arguments("updatePolicy.order", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setOrder(null)),
                arguments("updatePolicy.progressDeadlineSeconds", (Consumer<ReplicaSetSpec>) s -> s.getUpdatePolicy().setProgressDeadlineSeconds(0)),
                arguments("updatePolicy.progressDeadlineSeconds", (Consumer<ReplicaSetSpec>) s -> {
                    s.getUpdatePolicy().setMinReadySeconds(60);
                    s.getUpdatePolicy().setProgressDeadlineSeconds(30);
                }),
                arguments("healthCheck", (Consumer<ReplicaSetSpec>) s -> s.setHealthCheck(null)),
                arguments("healthCheck.http", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setHttp(null)),
                arguments("healthCheck.http.port", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().getHttp().setPort(70000)),
                arguments("healthCheck.http.path", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().getHttp().setPath("health")),
                arguments("healthCheck.http.expectStatus", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().getHttp().setExpectStatus(42)),
                arguments("healthCheck.intervalSeconds", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setIntervalSeconds(0)),
                arguments("healthCheck.timeoutSeconds", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setTimeoutSeconds(0)),
                arguments("healthCheck.timeoutSeconds", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setTimeoutSeconds(30)),
                arguments("healthCheck.healthyThreshold", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setHealthyThreshold(0)),
                arguments("healthCheck.unhealthyThreshold", (Consumer<ReplicaSetSpec>) s -> s.getHealthCheck().setUnhealthyThreshold(0)),
                arguments("approvals", (Consumer<ReplicaSetSpec>) s -> s.setApprovals(null)),
                arguments("attestation", (Consumer<ReplicaSetSpec>) s -> s.setAttestation(null)),
                arguments("attestation.kmsKeyIds[0]", (Consumer<ReplicaSetSpec>) s -> s.getAttestation().setKmsKeyIds(java.util.List.of("not-hex"))),
                arguments("attestation.osImageHashes[0]", (Consumer<ReplicaSetSpec>) s -> s.getAttestation().setOsImageHashes(java.util.List.of("abcd"))),
                arguments("attestation.acceptedTcbStatuses", (Consumer<ReplicaSetSpec>) s -> s.getAttestation().setAcceptedTcbStatuses(java.util.List.of())),
                arguments("attestation.onFailure", (Consumer<ReplicaSetSpec>) s -> s.getAttestation().setOnFailure(null)),
                arguments("attestation.acceptedTcbStatuses[1]", (Consumer<ReplicaSetSpec>) s -> s.getAttestation().setAcceptedTcbStatuses(java.util.List.of("UpToDate", "Revoked"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFields")
    void namesTheSetAndTheBadField(String field, Consumer<ReplicaSetSpec> breakIt) {
        ReplicaSetSpec bad = validSet("consul-servers");
        breakIt.accept(bad);
        List<String> problems = validator.validate(fleetOf(validSet("webdemo"), bad));
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)).startsWith("replicaSets[1]").contains(": " + field + ": ");
        if (bad.getName() != null) {
            assertThat(problems.get(0)).contains("(" + bad.getName() + ")");
        }
    }

    @Test
    void updatePolicyProblemsNameTheFieldAndSayWhatIsWrong() {
        UpdatePolicy policy = new UpdatePolicy();
        policy.setType(null);
        policy.setMinimalAction(UpdateAction.RESTART);
        policy.setMostDisruptiveAllowedAction(UpdateAction.REFRESH);
        policy.setMaxUnavailable("0%");
        policy.setMaxSurge(" 0 ");
        policy.setPartition(5);
        policy.setOrder(null);
        assertThat(validator.validateUpdatePolicy(policy, 3)).containsExactly(
                "updatePolicy.type: is required: one of proactive, opportunistic",
                "updatePolicy.minimalAction: minimalAction RESTART exceeds mostDisruptiveAllowedAction REFRESH",
                "updatePolicy.maxUnavailable: maxUnavailable and maxSurge are both 0: no instance could ever be updated",
                "updatePolicy.partition: must be between 0 and replicas (3) (was 5)",
                "updatePolicy.order: is required: one of ordinal-descending, ordinal-ascending, role-aware");
        assertThat(validator.validateUpdatePolicy(null, 3)).containsExactly("updatePolicy: is required");
    }

    @Test
    void aPercentageThatRoundsToZeroIsFineButTwoZerosAreNot() {
        UpdatePolicy policy = new UpdatePolicy();
        policy.setMaxUnavailable("10%");
        assertThat(validator.validateUpdatePolicy(policy, 3)).isEmpty();
        assertThat(policy.resolvedMaxUnavailable(3)).isEqualTo(1);
        policy.setMaxUnavailable("0");
        policy.setMaxSurge("1");
        assertThat(validator.validateUpdatePolicy(policy, 3)).isEmpty();
        policy.setMaxSurge("3");
        assertThat(validator.validateUpdatePolicy(policy, 3)).isEmpty();
        policy.setMaxSurge("4");
        assertThat(validator.validateUpdatePolicy(policy, 3)).containsExactly("updatePolicy.maxSurge: must not exceed replicas (3) (was 4)");
        policy.setMaxSurge("x");
        assertThat(validator.validateUpdatePolicy(policy, 3))
                .containsExactly("updatePolicy.maxSurge: must be a whole number or a percentage like 25% (was 'x')");
    }

    @Test
    void roleAwareNeedsARoleProbeExceptForPatroni() {
        ReplicaSetSpec generic = validSet("webdemo");
        generic.getUpdatePolicy().setOrder(RolloutOrder.ROLE_AWARE);
        assertThat(validator.validate(fleetOf(generic))).containsExactly("replicaSets[0] (webdemo): updatePolicy.order: role-aware "
                + "needs roleProbe (port, path) for workload type 'generic', whose descriptor has none (patroni's asks GET /leader on 8008)");
        generic.getRoleProbe().setPort(8080);
        generic.getRoleProbe().setPath("/role");
        assertThat(validator.validate(fleetOf(generic))).isEmpty();
        ReplicaSetSpec patroni = validSet("patroni-demo");
        patroni.setWorkloadType("patroni");
        patroni.getUpdatePolicy().setOrder(RolloutOrder.ROLE_AWARE);
        assertThat(validator.validate(fleetOf(patroni))).isEmpty();
    }

    @Test
    void duplicateNamesAreRefused() {
        assertThat(validator.validate(fleetOf(validSet("webdemo"), validSet("webdemo"))))
                .containsExactly("replicaSets[1] (webdemo): name: is used by another replica set");
    }

    @Test
    void appIdIsRequiredWhereAppsAreNotCreated() {
        FleetValidator production = new FleetValidator(TYPES, false, Path.of("."));
        assertThat(production.validate(fleetOf(validSet("webdemo")))).singleElement().asString().contains("appId: is required");
        ReplicaSetSpec withApp = validSet("webdemo");
        withApp.setAppId("app_" + "ab".repeat(20));
        assertThat(production.validate(fleetOf(withApp))).isEmpty();
    }

    @Test
    void composeFileIsResolvedAgainstTheBaseDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("web.yaml"), "services:\n  web:\n    image: nginx:1.27\n");
        FleetValidator inDir = new FleetValidator(TYPES, true, dir);
        ReplicaSetSpec set = validSet("webdemo");
        set.setDockerCompose(null);
        set.setComposeFile("web.yaml");
        assertThat(inDir.validate(fleetOf(set))).isEmpty();
        set.setComposeFile("missing.yaml");
        assertThat(inDir.validate(fleetOf(set))).singleElement().asString().contains("composeFile: cannot read");
    }

    /** Issue 18: the fleet file's compose is what the bootstrap creates CVMs with; it is checked as a rollout's is. */
    @Test
    void aComposeFileThatIsNoComposeIsRefusedWithItsLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("web.yaml"), "services:\n  web:\n    ports: [\"80:80\"]\n");
        FleetValidator inDir = new FleetValidator(TYPES, true, dir);
        ReplicaSetSpec set = validSet("webdemo");
        set.setDockerCompose(null);
        set.setComposeFile("web.yaml");
        assertThat(inDir.validate(fleetOf(set))).singleElement().asString()
                .contains("composeFile: '").contains("web.yaml': line 2: service 'web' has neither 'image' nor 'build'");
    }

    @Test
    void anEmptyFleetIsRefusedAndCheckListsEveryProblem() {
        assertThat(validator.validate(new FleetDefinition())).containsExactly("replicaSets: at least one replica set is required");
        ReplicaSetSpec bad = validSet("webdemo");
        bad.setReplicas(0);
        bad.setWorkloadType("mongodb");
        assertThatThrownBy(() -> validator.check(fleetOf(bad)))
                .isInstanceOf(FleetDefinitionException.class)
                .hasMessageContaining("replicas").hasMessageContaining("mongodb");
    }
}
