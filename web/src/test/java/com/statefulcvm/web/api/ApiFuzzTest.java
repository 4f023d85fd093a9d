package com.statefulcvm.web.api;

import com.statefulcvm.web.OrchestratorApplication;
import com.statefulcvm.web.E2eSupport;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.web.security.Roles;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.identity.User;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-based fuzzing of every endpoint under /api: random methods, paths (unknown and odd set names, huge and
 * non-numeric ordinals and revisions, unicode, encoded dots and NULs), content types and bodies (random JSON of any
 * shape, wrong types, huge numbers, nulls, deep nesting, malformed text, bodies of the right shape with random values),
 * as admin, as a user outside {@code operators}, with a wrong password and without credentials. Never a 5xx; every
 * refusal a 4xx with a body; and nothing changes: no rollout started, no task, no revision, no registry row. A valid
 * request that happens to be generated may start a rollout (201), which is then deleted and not counted as a change.
 *
 * <p>The application runs once for the whole property, over real HTTP on a free port, as in the e2e tests.
 */
class ApiFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASSWORD = "fuzz-password";
    private static final Set<String> START_PATHS = Set.of("rollouts", "rollout", "rollbacks", "heal", "failover");

    private static final Map<String, Integer> SEEN = new java.util.concurrent.ConcurrentSkipListMap<>();
    private static ConfigurableApplicationContext app;
    private static HttpClient client;
    private static String base;

    @BeforeContainer
    static void start() {
        int port = E2eSupport.freePort();
        app = new SpringApplicationBuilder(OrchestratorApplication.class)
                .profiles("e2e")
                .run("--server.port=" + port, "--spring.datasource.url=jdbc:h2:mem:api-fuzz;DB_CLOSE_DELAY=-1",
                        // every caller here is one client (127.0.0.1): its "wrong-password" calls must not throttle the
                        // others' (LoginThrottle has tests of its own)
                        "--orchestrator.security.login-throttle.free-failures=1000000");
        base = "http://127.0.0.1:" + port;
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        IdentityService identity = app.getBean(IdentityService.class);
        for (String id : List.of("fuzzoperator", "fuzzauditor", "fuzzlockedout")) {
            User user = identity.newUser(id);
            user.setPassword(PASSWORD);
            identity.saveUser(user);
        }
        identity.createMembership("fuzzoperator", Roles.OPERATORS);
    }

    @AfterContainer
    static void stop() {
        System.out.println("ApiFuzzTest: answers by status, method and endpoint:");
        SEEN.forEach((k, n) -> System.out.printf("  %4d  %s%n", n, k));
        if (app != null) {
            app.close();
        }
    }

    record Call(String method, String path, String contentType, String body, String user) {
        @Override
        public String toString() {
            String shown = body == null ? "<none>" : body.length() > 300 ? body.substring(0, 300) + "...(" + body.length() + " chars)" : body;
            return method + " " + path + " as " + user + " [" + contentType + "] " + shown;
        }
    }

    @Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
    void noRequestFailsOnTheServerOrChangesAnything(@ForAll("calls") Call call) throws Exception {
        Map<String, Long> before = state();
        HttpResponse<String> response = send(call);
        int status = response.statusCode();
        String body = response.body() == null ? "" : response.body();
        // printed at the end: how far the random calls got
        SEEN.merge(status + " " + call.method() + " " + call.path().replaceAll("^/api/replica-sets/[^/]+", "/api/replica-sets/{set}")
                .replaceAll("/(instances|revisions|rollouts)/[^/]+", "/$1/{x}").replaceAll("^/api/(?!replica-sets|rollouts|attestations)[^/]*", "/api/{junk}"),
                1, Integer::sum);

        assertThat(status).as("%s answered %s %s", call, status, body).isLessThan(500).isGreaterThanOrEqualTo(200);
        if (call.user().equals("nobody") || call.user().equals("wrong-password")) {
            assertThat(status).as("%s answered %s", call, status).isIn(400, 401);
        }
        if (status >= 400 && status != 401 && !call.method().equals("HEAD")) {
            assertThat(body).as("%s: a %s says why", call, status).isNotBlank();
        }
        if (status == 201) {
            // a valid start was generated: only an operator or admin, only on a start endpoint; undo it
            assertThat(call.user()).isIn("admin", "fuzzoperator");
            assertThat(call.method()).isEqualTo("POST");
            assertThat(START_PATHS).contains(call.path().substring(call.path().lastIndexOf('/') + 1));
            String pid = JSON.readTree(body).get("processInstanceId").asText();
            E2eSupport.deleteIfRunning(app.getBean(RuntimeService.class), pid);
            return;
        }
        if (call.user().equals("fuzzauditor") && call.method().equals("POST")
                && (START_PATHS.stream().anyMatch(call.path()::endsWith) || call.path().matches(".*/(pause|resume|abort)"))) {
            assertThat(status).as("%s answered %s %s", call, status, body).isGreaterThanOrEqualTo(400);
        }
        assertThat(state()).as("%s changed something (answered %s %s)", call, status, body).isEqualTo(before);
    }

    private static HttpResponse<String> send(Call call) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + call.path())).timeout(Duration.ofSeconds(30));
        if (call.contentType() != null) {
            request.header("Content-Type", call.contentType());
        }
        switch (call.user()) {
            case "nobody" -> { }
            // a user of its own: Camunda locks a user for a while after a wrong password
            case "wrong-password" -> request.header("Authorization", basic("fuzzlockedout", "not-the-password"));
            case "admin" -> request.header("Authorization", basic("admin", "admin"));
            default -> request.header("Authorization", basic(call.user(), PASSWORD));
        }
        HttpRequest.BodyPublisher publisher = call.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(call.body(), StandardCharsets.UTF_8);
        request.method(call.method(), publisher);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** What a request could change: rollouts (running and in history), their tasks, revisions, the registry. */
    private static Map<String, Long> state() {
        RuntimeService runtime = app.getBean(RuntimeService.class);
        HistoryService history = app.getBean(HistoryService.class);
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        Map<String, Long> state = new LinkedHashMap<>();
        state.put("running rollouts", runtime.createProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count());
        state.put("rollouts in history", history.createHistoricProcessInstanceQuery().processDefinitionKey(RolloutVariables.PROCESS_KEY).count());
        for (String table : List.of("orch_replica_set", "orch_instance", "orch_revision", "orch_replica_set_revision")) {
            state.put(table, jdbc.queryForObject("select count(*) from " + table, Long.class));
        }
        state.put("revision pointers", jdbc.queryForObject(
                "select coalesce(sum(current_revision), 0) + coalesce(sum(update_revision), 0) from orch_replica_set_revision", Long.class));
        return state;
    }

    // ---------------------------------------------------------------------------------------------- generators

    @Provide
    Arbitrary<Call> calls() {
        Arbitrary<String> anyMethod = Arbitraries.of("POST", "GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
        Arbitrary<String> contentType = Arbitraries.frequency(Tuple.of(16, "application/json"), Tuple.of(1, "text/plain"),
                Tuple.of(1, "application/xml"), Tuple.of(1, "application/json; charset=ISO-8859-1"),
                Tuple.of(1, "application/x-www-form-urlencoded"), Tuple.of(1, "multipart/form-data"));
        Arbitrary<String> user = Arbitraries.frequency(Tuple.of(14, "admin"), Tuple.of(3, "fuzzoperator"), Tuple.of(2, "fuzzauditor"),
                Tuple.of(1, "nobody"), Tuple.of(1, "wrong-password"));
        Arbitrary<String> body = Arbitraries.frequency(
                Tuple.of(5, shapedBodies()), Tuple.of(2, json(4).map(ApiFuzzTest::write)), Tuple.of(1, malformed()),
                // now and then a valid body, so that the fuzz also sees starts (201, undone) among the refusals
                Tuple.of(1, Arbitraries.of("{\"dockerCompose\": \"services: {web: {image: nginx}}\"}", "{\"revision\": 1}", "{}")),
                Tuple.of(1, Arbitraries.just("")), Tuple.of(1, Arbitraries.just((String) null))).flatMap(a -> a);
        // mostly the endpoint's own method, so that most calls get past routing into the checks of the input
        Arbitrary<Tuple.Tuple2<String, String>> endpoint = Combinators.combine(endpoints(), anyMethod, Arbitraries.integers().between(1, 10))
                .as((e, other, dice) -> dice <= 8 ? e : Tuple.of(other, e.get2()));
        return Combinators.combine(endpoint, contentType.injectNull(0.05), body, user)
                .as((e, type, b, u) -> new Call(e.get1(), e.get2(), type, b, u));
    }

    /** Every endpoint under /api with its method, and some that do not exist. */
    private static Arbitrary<Tuple.Tuple2<String, String>> endpoints() {
        Arbitrary<String> set = Arbitraries.frequency(
                Tuple.of(8, Arbitraries.just("webdemo")),
                Tuple.of(2, Arbitraries.of("nope", "WEBDEMO", "webdemo-", "%2e%2e", "..", "webdemo%00", "%F0%9F%98%80", "a%20b",
                        "x".repeat(300), "webdemo;x=1", "%25", "null", "0")),
                Tuple.of(1, segment())).flatMap(a -> a);
        Arbitrary<String> number = Arbitraries.frequency(
                Tuple.of(3, Arbitraries.integers().between(-2, 5).map(String::valueOf)),
                Tuple.of(1, Arbitraries.of("99999999999999999999", "2147483648", "-2147483649", "1e3", "0x1", "+1", "01", "1.0",
                        "%201", "one", "%00", "")),
                Tuple.of(1, Arbitraries.integers().map(String::valueOf))).flatMap(a -> a);
        Arbitrary<String> id = Arbitraries.frequency(Tuple.of(2, segment()),
                Tuple.of(1, Arbitraries.of("00000000-0000-0000-0000-000000000000", "%27%20or%201=1", "x".repeat(500)))).flatMap(a -> a);
        return Arbitraries.frequency(
                Tuple.of(1, Arbitraries.just(Tuple.of("GET", "/api/replica-sets"))),
                Tuple.of(1, set.map(s -> Tuple.of("GET", "/api/replica-sets/" + s))),
                Tuple.of(5, set.map(s -> Tuple.of("POST", "/api/replica-sets/" + s + "/rollouts"))),
                Tuple.of(4, set.map(s -> Tuple.of("POST", "/api/replica-sets/" + s + "/rollouts/plan"))),
                Tuple.of(3, Combinators.combine(set, number).as((s, n) -> Tuple.of("POST", "/api/replica-sets/" + s + "/instances/" + n + "/rollout"))),
                Tuple.of(1, set.map(s -> Tuple.of("GET", "/api/replica-sets/" + s + "/revisions"))),
                Tuple.of(1, Combinators.combine(set, number).as((s, n) -> Tuple.of("GET", "/api/replica-sets/" + s + "/revisions/" + n))),
                Tuple.of(3, set.map(s -> Tuple.of("POST", "/api/replica-sets/" + s + "/rollbacks"))),
                Tuple.of(1, id.map(i -> Tuple.of("GET", "/api/rollouts/" + i))),
                Tuple.of(2, Combinators.combine(id, Arbitraries.of("pause", "resume", "abort")).as((i, a) -> Tuple.of("POST", "/api/rollouts/" + i + "/" + a))),
                Tuple.of(3, Arbitraries.just(Tuple.of("POST", "/api/attestations/verify"))),
                Tuple.of(1, Combinators.combine(set, number).as((s, n) -> Tuple.of("POST", "/api/replica-sets/" + s + "/instances/" + n + "/heal"))),
                Tuple.of(1, set.map(s -> Tuple.of("GET", "/api/replica-sets/" + s + "/health"))),
                Tuple.of(1, set.map(s -> Tuple.of("POST", "/api/replica-sets/" + s + "/failover"))),
                Tuple.of(1, segment().map(s -> Tuple.of("POST", "/api/" + s)))).flatMap(a -> a);
    }

    /** A path segment: letters, digits, unicode and reserved characters, percent-encoded. */
    private static Arbitrary<String> segment() {
        return Arbitraries.strings().all().ofMinLength(1).ofMaxLength(30).map(ApiFuzzTest::encode);
    }

    private static String encode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** Bodies of the endpoints' own shape, with random values in the known fields (and sometimes an unknown one). */
    private static Arbitrary<String> shapedBodies() {
        Arbitrary<Object> compose = Arbitraries.frequency(
                Tuple.of(3, Arbitraries.of("services: {web: {image: nginx}}", "services:\n  web:\n    image: nginxdemos/hello:0.9\n")
                        .map(s -> (Object) s)),
                Tuple.of(2, leaf()),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(50).map(s -> (Object) s))).flatMap(a -> a);
        Arbitrary<Map<String, Object>> policy = Arbitraries.maps(
                Arbitraries.of("maxUnavailable", "maxSurge", "minReadySeconds", "partition", "order", "progressDeadlineSeconds",
                        "onFailure", "type", "minimalAction", "mostDisruptiveAllowedAction", "max-unavailable", "partiton"),
                Arbitraries.frequency(Tuple.of(3, leaf()), Tuple.of(1, Arbitraries.of("25%", "-1%", "200%", "x%", "role-aware",
                        "ROLLBACK", "replace", "random").map(s -> (Object) s)), Tuple.of(1, json(2))).flatMap(a -> a)).ofMaxSize(4);
        Arbitrary<Object> policyValue = Arbitraries.frequency(Tuple.of(4, policy.map(m -> (Object) m)), Tuple.of(1, leaf())).flatMap(a -> a);
        Arbitrary<Object> revision = Arbitraries.frequency(Tuple.of(2, Arbitraries.integers().between(-1, 3).map(i -> (Object) i)),
                Tuple.of(1, leaf())).flatMap(a -> a);
        Arbitrary<Object> hex = Arbitraries.frequency(Tuple.of(1, Arbitraries.of("0x", "00ff", "zz", "0x" + "ab".repeat(700))
                .map(s -> (Object) s)), Tuple.of(1, leaf())).flatMap(a -> a);
        return Combinators.combine(compose.injectNull(0.2), policyValue.injectNull(0.4), revision.injectNull(0.3), hex.injectNull(0.6),
                json(2).injectNull(0.7), Arbitraries.of("dockerCompose", "updatePolicy", "revision", "quote", "event_log", "vm_config",
                        "collateral", "at", "unknownField").injectNull(0.7))
                .as((c, p, r, q, extra, extraName) -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    putUnlessNull(body, "dockerCompose", c);
                    putUnlessNull(body, "updatePolicy", p);
                    putUnlessNull(body, "revision", r);
                    putUnlessNull(body, "quote", q);
                    if (extraName != null) {
                        body.put(extraName, extra);
                    }
                    return write(body);
                });
    }

    private static void putUnlessNull(Map<String, Object> body, String name, Object value) {
        if (value != null) {
            body.put(name, value);
        }
    }

    private static Arbitrary<Object> leaf() {
        return Arbitraries.oneOf(
                Arbitraries.just(null),
                Arbitraries.of(true, false),
                Arbitraries.integers().map(i -> (Object) i),
                Arbitraries.longs().map(l -> (Object) l),
                Arbitraries.of(new BigInteger("1" + "0".repeat(40)), new BigInteger("-9223372036854775809"),
                        new BigInteger("2147483648"), 1e308, -0.0, 1.5, Double.MIN_VALUE).map(n -> (Object) n),
                Arbitraries.strings().ofMaxLength(20).map(s -> (Object) s),
                Arbitraries.strings().withCharRange('\u0000', '\u001f').ofMaxLength(5).map(s -> (Object) s),
                Arbitraries.strings().withCharRange('\ud800', '\udfff').ofMaxLength(3).map(s -> (Object) s),
                Arbitraries.of("", " ", "😀💥", "null", "0", "-1", "1e400", "%", "${x}", "#{1+1}", "<script>").map(s -> (Object) s));
    }

    private static Arbitrary<Object> json(int depth) {
        if (depth == 0) {
            return leaf();
        }
        Arbitrary<Object> inner = json(depth - 1);
        return Arbitraries.frequency(
                Tuple.of(3, leaf()),
                Tuple.of(1, inner.list().ofMaxSize(4).map(l -> (Object) l)),
                Tuple.of(1, Arbitraries.maps(Arbitraries.of("dockerCompose", "updatePolicy", "revision", "maxSurge", "", "a", "😀"), inner)
                        .ofMaxSize(4).map(m -> (Object) m))).flatMap(a -> a);
    }

    /** Text that is not JSON, JSON nested past every parser's limit, and numbers longer than any parser takes. */
    private static Arbitrary<String> malformed() {
        return Arbitraries.oneOf(
                Arbitraries.of("{", "}", "{\"dockerCompose\":", "{\"dockerCompose\": \"x\",}", "[1,2", "nul", "{'a': 1}",
                        "{\"a\": 1} trailing", "\uFEFF{}", "{\"a\":\"\\uZZZZ\"}", "{\"a\": NaN}", "{\"a\": 01}"),
                Arbitraries.integers().between(500, 3000).map(n -> "[".repeat(n) + "]".repeat(n)),
                Arbitraries.integers().between(500, 3000).map(n -> "{\"a\":".repeat(n) + "1" + "}".repeat(n)),
                Arbitraries.integers().between(1001, 5000).map(n -> "{\"revision\": " + "9".repeat(n) + "}"),
                Arbitraries.strings().ofMaxLength(60));
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fuzz also covers the body limit; kept to a few tries since each is 600 KiB. */
    @Property(tries = 6)
    void oversizedBodiesAre413WhateverTheEndpoint(@ForAll("bigCalls") Call call) throws Exception {
        Map<String, Long> before = state();
        HttpResponse<String> response = send(call);
        assertThat(response.statusCode()).as(call.toString()).isEqualTo(413);
        assertThat(JSON.readTree(response.body()).get("message").asText()).contains("larger than 524288 bytes");
        assertThat(state()).isEqualTo(before);
    }

    @Provide
    Arbitrary<Call> bigCalls() {
        return Combinators.combine(Arbitraries.of("/api/replica-sets/webdemo/rollouts", "/api/replica-sets/webdemo/rollouts/plan",
                        "/api/replica-sets/webdemo/rollbacks", "/api/attestations/verify", "/api/replica-sets/webdemo/instances/0/rollout"),
                Arbitraries.of(600 * 1024, 1024 * 1024))
                .as((path, size) -> new Call("POST", path, "application/json",
                        "{\"dockerCompose\": \"" + "a".repeat(size) + "\"}", "admin"));
    }
}
