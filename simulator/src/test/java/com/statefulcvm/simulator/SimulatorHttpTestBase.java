package com.statefulcvm.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The simulator over real HTTP, with tiny timings. Every test starts from a reset simulator with these timings.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "simulator.enabled=true",
    "simulator.api-key=" + SimulatorHttpTestBase.API_KEY,
    "simulator.gateway-base-domain=test.phala.local"})
public abstract class SimulatorHttpTestBase {

    public static final String API_KEY = "phak_test_key";
    public static final String COMPOSE = """
            services:
              web:
                image: nginx:1.27
                ports:
                  - "8080:80"
            """;
    static final Map<String, Object> TEST_TIMINGS = Map.of(
            "createMs", 150, "startMs", 60, "stopMs", 80, "shutdownMs", 80,
            "restartMs", 100, "updateMs", 150, "deleteMs", 80);

    @LocalServerPort
    protected int port;

    protected SimClient sim;

    @BeforeEach
    void resetSimulator() {
        sim = new SimClient(port, API_KEY);
        assertThat(sim.post(SimClient.ADMIN + "/reset", null).status()).isEqualTo(204);
        assertThat(sim.put(SimClient.ADMIN + "/timings", TEST_TIMINGS).status()).isEqualTo(200);
    }

    /** Provision + commit: the app's first CVM (just created, not yet running). */
    protected JsonNode createApp(String name) {
        return createApp(name, COMPOSE);
    }

    protected JsonNode createApp(String name, String dockerCompose) {
        awaitNoCreation();
        SimClient.Response provision = sim.post(api("/cvms/provision"), Map.of(
                "name", name,
                "instance_type", "tdx.small",
                "compose_file", Map.of("docker_compose_file", dockerCompose, "gateway_enabled", true)));
        assertThat(provision.status()).as(provision.toString()).isEqualTo(200);
        SimClient.Response commit = sim.post(api("/cvms"), Map.of(
                "app_id", provision.json().get("app_id").asText(),
                "compose_hash", provision.json().get("compose_hash").asText()));
        assertThat(commit.status()).as(commit.toString()).isEqualTo(200);
        return commit.json();
    }

    protected JsonNode addInstance(String appId, String name) {
        awaitNoCreation();
        SimClient.Response response = sim.post(api("/apps/" + appId + "/instances"), Map.of("name", name));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    /**
     * Waits until no CVM of the workspace is being created: the simulator, like the service, refuses a create while
     * another is under way (CreationGate).
     */
    protected void awaitNoCreation() {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode page = sim.get(api("/cvms/paginated?page=1&page_size=100")).json();
            return StreamSupport.stream(page.get("items").spliterator(), false)
                    .map(cvm -> cvm.get("status").asText())
                    .noneMatch(status -> status.equals("creating") || status.equals("pending"));
        });
    }

    /** {@code PATCH /cvms/{ref}/docker-compose} as the SDK sends it: the YAML itself, text/yaml. */
    protected SimClient.Response patchCompose(String ref, String yaml) {
        return sim.patchRaw(api("/cvms/" + ref + "/docker-compose"), "text/yaml", yaml);
    }

    /** The env sealed to the app's key, read from the simulated KMS as a client does. */
    protected String sealedEnv(String appId, Map<String, String> env) {
        JsonNode key = sim.get(api("/kms/phala-sim/pubkey/" + appId)).json();
        return com.statefulcvm.connectors.phala.EnvEncryption.seal(env, key.get("public_key").asText()).encryptedEnv();
    }

    protected JsonNode cvm(String ref) {
        SimClient.Response response = sim.get(api("/cvms/" + ref));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    /** Waits until the CVM is in {@code status} and settled; answers its detail. */
    protected JsonNode awaitSettled(String ref, String status) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode cvm = cvm(ref);
            return status.equals(cvm.get("status").asText()) && !cvm.get("in_progress").asBoolean()
                    && cvm.get("progress").get("target").isNull();
        });
        return cvm(ref);
    }

    protected JsonNode createRunningApp(String name) {
        createApp(name);
        return awaitSettled(name, "running");
    }

    /** The status changes of one CVM as "from->to". */
    protected List<String> transitions(String cvmName) {
        JsonNode events = sim.get(SimClient.ADMIN + "/events").json();
        return StreamSupport.stream(events.spliterator(), false)
                .filter(e -> cvmName.equals(e.get("cvm").asText()))
                .map(e -> e.get("from").asText(null) + "->" + e.get("to").asText())
                .toList();
    }

    protected static String api(String path) {
        return SimClient.API + path;
    }
}
