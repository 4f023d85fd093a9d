package com.statefulcvm.web.api;

import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.camunda.bpm.engine.RuntimeService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** Who may call what, and how bad requests are refused without changing anything. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("e2e")
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class ApiSecurityAndInputTest {

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "api-test");
    }

    @Autowired
    TestRestTemplate http;
    @LocalServerPort
    int port;
    @Autowired
    RuntimeService runtime;

    @Test
    void ourApiAndTheEngineApiRequireBasicAuth() {
        assertThat(http.getForEntity("/api/replica-sets", String.class).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(http.getForEntity("/engine-rest/process-definition", String.class).getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(http.withBasicAuth("mallory", "guess").getForEntity("/api/replica-sets", String.class).getStatusCode())
                .isEqualTo(HttpStatus.UNAUTHORIZED);
        ResponseEntity<String> ok = http.withBasicAuth("admin", "admin").getForEntity("/api/replica-sets", String.class);
        assertThat(ok.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(ok.getBody()).contains("\"name\":\"webdemo\"").contains("\"workloadType\":\"generic\"").contains("\"replicas\":3");
    }

    @Test
    void badRolloutRequestsAreRefusedWithAMessageAndStartNothing() {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        long before = runtime.createProcessInstanceQuery().count();

        assertRefused(admin.postForEntity("/api/replica-sets/nope/rollouts", json("{\"dockerCompose\":\"x: 1\"}"), String.class),
                HttpStatus.NOT_FOUND, "unknown replica set 'nope'");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("{\"dockerCompose\":"), String.class),
                HttpStatus.BAD_REQUEST, "malformed JSON body");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("{}"), String.class),
                HttpStatus.BAD_REQUEST, "dockerCompose: is required");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("{\"dockerCompose\": 42}"), String.class),
                HttpStatus.BAD_REQUEST, "dockerCompose: must be a string");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("{\"dockerCompose\": \"  \"}"), String.class),
                HttpStatus.BAD_REQUEST, "dockerCompose: must not be empty");
        String huge = "{\"dockerCompose\": \"" + "a".repeat(300 * 1024) + "\"}";
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json(huge), String.class),
                HttpStatus.BAD_REQUEST, "dockerCompose: larger than");
        assertRefused(admin.getForEntity("/api/replica-sets/nope", String.class), HttpStatus.NOT_FOUND, "unknown replica set");

        assertThat(runtime.createProcessInstanceQuery().count()).isEqualTo(before);
    }

    @Test
    void aSecondRolloutOfTheSameSetIsAConflict() throws Exception {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        ResponseEntity<String> first = admin.postForEntity("/api/replica-sets/webdemo/rollouts",
                json("{\"dockerCompose\":\"services: {a: {image: x}}\"}"), String.class);
        assertThat(first.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        String pid = new ObjectMapper().readTree(first.getBody()).get("processInstanceId").asText();
        try {
            ResponseEntity<String> second = admin.postForEntity("/api/replica-sets/webdemo/rollouts",
                    json("{\"dockerCompose\":\"services: {b: {image: y}}\"}"), String.class);
            assertRefused(second, HttpStatus.CONFLICT, "already running");
            assertThat(second.getBody()).contains(pid);
        } finally {
            E2eSupport.deleteIfRunning(runtime, pid);
        }
    }

    @Test
    void bodiesOverTheLimitAre413WithAMessageAndMultipartIs415AfterAuthentication() throws Exception {
        long before = runtime.createProcessInstanceQuery().count();
        String big = "{\"dockerCompose\": \"" + "a".repeat(600 * 1024) + "\"}";
        HttpClient client = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + port + "/api/replica-sets/webdemo/rollouts";
        String admin = "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));

        // declared length: refused before it is read
        HttpResponse<String> declared = client.send(HttpRequest.newBuilder(URI.create(base)).header("Authorization", admin)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(big)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.body()).contains("request body larger than 524288 bytes (512 KiB)");

        // chunked, without a length: refused once the limit is passed
        HttpResponse<String> chunked = client.send(HttpRequest.newBuilder(URI.create(base)).header("Authorization", admin)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(413);
        assertThat(chunked.body()).contains("request body larger than 524288 bytes");

        // multipart is not parsed at all (Spring would answer a malformed one with 500)
        HttpResponse<String> multipart = client.send(HttpRequest.newBuilder(URI.create(base)).header("Authorization", admin)
                .header("Content-Type", "multipart/form-data").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(multipart.statusCode()).isEqualTo(415);
        assertThat(multipart.body()).contains("send Content-Type: application/json");

        // nor a form body: a malformed one (a bare '%') made Spring's form filter answer 500 before any controller
        for (String path : new String[]{"/api/replica-sets", "/api/replica-sets/webdemo/rollouts"}) {
            HttpResponse<String> form = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", admin).header("Content-Type", "application/x-www-form-urlencoded")
                    .PUT(HttpRequest.BodyPublishers.ofString("%\",\"")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(form.statusCode()).as("PUT %s with a malformed form body", path).isBetween(400, 499);
        }

        // the caller is asked first: nothing about the request is answered to a stranger
        HttpResponse<String> stranger = client.send(HttpRequest.newBuilder(URI.create(base))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(big)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(stranger.statusCode()).isEqualTo(401);

        assertThat(runtime.createProcessInstanceQuery().count()).isEqualTo(before);
    }

    @Test
    void outOfRangeNumbersAndWrongTypesAreRefusedWithTheField() {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        long before = runtime.createProcessInstanceQuery().count();
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollbacks", json("{\"revision\": 99999999999999999999}"), String.class),
                HttpStatus.BAD_REQUEST, "revision: must be a revision number");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollbacks", json("{\"revision\": 1.5}"), String.class),
                HttpStatus.BAD_REQUEST, "revision: must be a revision number");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/instances/99999999999999999999/rollout", json("{}"), String.class),
                HttpStatus.BAD_REQUEST, "ordinal: must be a number");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts",
                json("{\"dockerCompose\": \"services: {web: {image: nginx}}\", \"updatePolicy\": {\"maxUnavailable\": 1e400}}"), String.class),
                HttpStatus.BAD_REQUEST, "updatePolicy.maxUnavailable");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts",
                json("{\"dockerCompose\": \"services: {web: {image: nginx}}\", \"updatePolicy\": {\"partition\": 99999999999}}"), String.class),
                HttpStatus.BAD_REQUEST, "updatePolicy.partition");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("[" .repeat(2000) + "]".repeat(2000)), String.class),
                HttpStatus.BAD_REQUEST, "malformed JSON body");
        assertRefused(admin.postForEntity("/api/replica-sets/webdemo/rollouts", json("{\"dockerCompose\": null}"), String.class),
                HttpStatus.BAD_REQUEST, "dockerCompose: is required");
        assertThat(runtime.createProcessInstanceQuery().count()).isEqualTo(before);
    }

    /**
     * The fleet entry from a Terraform state (docs/terraform.md), over HTTP as an operator calls it with curl: the entry
     * to paste, and a clear 400 naming the cause for a body that is no state or members named otherwise; the state's
     * plaintext env values are neither answered nor logged.
     */
    @Test
    void aFleetEntryFromATerraformStateNamesNoSecretAndRefusesWhatItCannotAdopt(
            org.springframework.boot.test.system.CapturedOutput logs) throws Exception {
        TestRestTemplate admin = http.withBasicAuth("admin", "admin");
        String state = new String(getClass().getResourceAsStream("/terraform/consul-show.json").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        ResponseEntity<String> entry = admin.postForEntity("/api/fleet-entries/from-terraform?workloadType=consul", json(state), String.class);
        assertThat(entry.getStatusCode()).as(entry.getBody()).isEqualTo(HttpStatus.OK);
        com.fasterxml.jackson.databind.JsonNode answer = new com.fasterxml.jackson.databind.ObjectMapper().readTree(entry.getBody());
        assertThat(answer.get("replicaSet").asText()).isEqualTo("consul");
        assertThat(answer.get("replicas").asInt()).isEqualTo(3);
        assertThat(answer.get("fleetEntry").asText()).startsWith("# from phala_app.consul").contains("  docker-compose: |\n")
                .contains("image: hashicorp/consul:1.20");
        assertThat(entry.getBody() + logs.getAll()).doesNotContain("the-plaintext-secret-in-state");

        String dbnodes = new String(getClass().getResourceAsStream("/terraform/dbnode-show.json").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        // members named otherwise are listed in the entry's members:, in ordinal order
        assertThat(admin.postForEntity("/api/fleet-entries/from-terraform?set=mydb", json(dbnodes), String.class).getBody())
                .contains("members:").contains("- dbnode-a");
        assertRefused(admin.postForEntity("/api/fleet-entries/from-terraform", json("{\"version\": 3}"), String.class),
                HttpStatus.BAD_REQUEST, "is this a Terraform state?");
        assertRefused(admin.postForEntity("/api/fleet-entries/from-terraform?workloadType=redis", json(state), String.class),
                HttpStatus.BAD_REQUEST, "workloadType: must be one of");
        assertThat(http.postForEntity("/api/fleet-entries/from-terraform", json(state), String.class).getStatusCode())
                .isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(logs.getAll()).doesNotContain("the-plaintext-secret-in-state");
    }

    private static void assertRefused(ResponseEntity<String> response, HttpStatus status, String message) {
        assertThat(response.getStatusCode()).isEqualTo(status);
        assertThat(response.getBody()).contains(message);
    }

    private static HttpEntity<String> json(String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return new HttpEntity<>(body, headers);
    }
}
