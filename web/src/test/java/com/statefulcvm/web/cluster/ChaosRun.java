package com.statefulcvm.web.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.statefulcvm.web.cluster.ChaosCheck.CvmSeen;
import com.statefulcvm.web.cluster.ChaosCheck.Event;
import com.statefulcvm.web.cluster.ChaosCheck.Intent;
import com.statefulcvm.web.cluster.ChaosCheck.Row;
import com.statefulcvm.web.cluster.ChaosCheck.Sample;
import com.statefulcvm.web.cluster.ChaosPlan.Step;
import com.statefulcvm.web.cluster.ProcessHarness.Http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static com.statefulcvm.web.cluster.ProcessHarness.JSON;
import static com.statefulcvm.web.cluster.ProcessHarness.log;

/**
 * One seed: the plan's steps at their moments against the cluster, an operator who answers every task the procedures
 * hand over (retry first, then give up: abort, stop, resolved), a sampler of the registry and of Phala, a writer to
 * etcd and one to PostgreSQL; then the quiet end (faults cleared, every node and process back, every procedure ended,
 * every CVM running) and the checker over what was recorded. Its report: the faults injected, the operations done
 * and how they ended, the figures and the violations.
 */
final class ChaosRun {

    private static final Duration SETTLE = Duration.ofSeconds(240);
    private static final List<String> PROCEDURES = List.of("rollout", "heal", "scale", "failover", "admit-instance");

    private final ChaosCluster cluster;
    private final ChaosPlan plan;
    private final Random random;
    private final Map<String, AtomicInteger> faults = new TreeMap<>();
    private final Map<String, AtomicInteger> operations = new TreeMap<>();
    private final Map<String, List<Instant>> crashes = new ConcurrentHashMap<>();
    private final List<Sample> samples = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> decisions = new ConcurrentHashMap<>();
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private final Set<Long> frozen = ConcurrentHashMap.newKeySet();

    ChaosRun(ChaosCluster cluster, long seed) {
        this.cluster = cluster;
        this.plan = ChaosPlan.of(seed);
        this.random = new Random(seed * 31 + 7);
    }

    /** The seed's outcome, printed as one block. */
    record Report(long seed, ChaosPlan plan, Map<String, Integer> faults, Map<String, Integer> operations,
                  Map<String, Integer> procedures, ChaosCheck.Result check, List<String> notes, Duration took) {

        int violations() {
            return check.count();
        }

        String text() {
            StringBuilder out = new StringBuilder();
            out.append(String.format("=== chaos seed %d: %d violation(s), %.0f s%n", seed, violations(), took.toMillis() / 1000.0));
            out.append("  plan: ").append(plan.steps()).append('\n');
            out.append("  faults injected: ").append(faults).append('\n');
            out.append("  operations asked: ").append(operations).append('\n');
            out.append("  procedures ended: ").append(procedures).append('\n');
            out.append("  figures: ").append(check.figures()).append('\n');
            check.violations().forEach((invariant, list) -> {
                if (!list.isEmpty()) {
                    out.append("  VIOLATION ").append(invariant).append(" (").append(list.size()).append("):\n");
                    list.forEach(v -> out.append("    ").append(v).append('\n'));
                }
            });
            notes.forEach(n -> out.append("  note: ").append(n).append('\n'));
            return out.toString();
        }
    }

    Report run() throws Exception {
        long startedNanos = System.nanoTime();
        Instant from = Instant.now();
        log("chaos seed " + plan.seed() + ": " + plan.steps());
        EtcdWriter etcdWriter = new EtcdWriter(cluster, plan.seed());
        SqlWriter sqlWriter = new SqlWriter(cluster, plan.seed());
        ScheduledExecutorService steps = Executors.newScheduledThreadPool(4);
        ScheduledExecutorService background = Executors.newScheduledThreadPool(4);
        try {
            sqlWriter.createTable();
            background.scheduleWithFixedDelay(etcdWriter::writeOne, 0, 200, TimeUnit.MILLISECONDS);
            background.scheduleWithFixedDelay(sqlWriter::writeOne, 0, 200, TimeUnit.MILLISECONDS);
            background.scheduleWithFixedDelay(this::operate, 1, 1, TimeUnit.SECONDS);
            background.scheduleWithFixedDelay(this::sample, 0, 1, TimeUnit.SECONDS);
            for (Step step : plan.steps()) {
                steps.schedule(() -> perform(step), step.atMs(), TimeUnit.MILLISECONDS);
            }
            steps.shutdown();
            steps.awaitTermination(ChaosPlan.WINDOW_MS + 60_000L, TimeUnit.MILLISECONDS);
            settle();
        } finally {
            steps.shutdownNow();
            background.shutdownNow();
            background.awaitTermination(10, TimeUnit.SECONDS);
        }
        List<ChaosCheck.Writes> writes = List.of(etcdWriter.result(), sqlWriter.result());
        sqlWriter.close();
        ChaosCheck.Result result = ChaosCheck.check(new ChaosCheck.Observations(from, journal(), crashes, intents(from),
                List.copyOf(samples), writes));
        Map<String, Integer> procedures = procedures(from);
        return new Report(plan.seed(), plan, counts(faults), counts(operations), procedures, result, List.copyOf(notes),
                Duration.ofNanos(System.nanoTime() - startedNanos));
    }

    private static Map<String, Integer> counts(Map<String, AtomicInteger> counters) {
        Map<String, Integer> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    private void count(Map<String, AtomicInteger> counters, String what) {
        synchronized (counters) {
            counters.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
        }
    }

    // --- the steps ----------------------------------------------------------------------------------------------------

    private void perform(Step step) {
        try {
            switch (step.kind()) {
                case ROLLOUT -> operation("rollout " + step.target(), "/api/replica-sets/" + step.target() + "/rollouts",
                        Map.of("dockerCompose", ChaosFleet.compose(set(step.target()), "chaos-" + plan.seed() + "-" + step.atMs())));
                case SCALE_UP, SCALE_DOWN -> operation("scale " + step.target() + " to " + step.amount(),
                        "/api/replica-sets/" + step.target() + "/scale", Map.of("replicas", step.amount()));
                case FAILOVER -> operation("failover " + step.target(), "/api/replica-sets/" + step.target() + "/failover", Map.of());
                case KILL_NODE -> {
                    cluster.kill(Integer.parseInt(step.target()));
                    count(faults, "kill -9 of a node");
                }
                case START_NODE -> {
                    if (!cluster.node(Integer.parseInt(step.target())).up()) {
                        cluster.start(Integer.parseInt(step.target()));
                    }
                }
                case CRASH_CVM -> crash(step.target());
                case PHALA_5XX -> phalaFault("Phala " + step.target() + " burst", Map.of("method", "*", "pathPattern", "/**",
                        "status", Integer.parseInt(step.target()), "times", step.amount()));
                case PHALA_429 -> phalaFault("Phala 429 burst", Map.of("method", "*", "pathPattern", "/**", "status", 429,
                        "times", step.amount(), "retryAfterSeconds", 1));
                case PHALA_TIMEOUT -> phalaFault("Phala timeouts", Map.of("method", "*", "pathPattern", "/cvms/**",
                        "delayMs", 4000, "times", step.amount()));
                case PROBE_TIMEOUT -> freeze(step.target(), step.amount());
                case DB_RESTART -> {
                    count(faults, "database restart");
                    cluster.restartDatabase(step.amount());
                }
            }
        } catch (Exception e) {
            notes.add(step + " could not be done: " + e);
        }
    }

    private static ChaosFleet.Set set(String name) {
        return ChaosFleet.SETS.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private void operation(String what, String path, Object body) throws Exception {
        ChaosCluster.Node node = cluster.liveNode();
        if (node == null) {
            count(operations, what + ": no node up");
            return;
        }
        HttpResponse<String> answer = node.api.postJson(path, body);
        String outcome = answer.statusCode() / 100 == 2 ? "started" : "refused " + answer.statusCode();
        count(operations, what.replaceAll(" to \\d+", "") + ": " + outcome);
        if (answer.statusCode() / 100 != 2) {
            String text = answer.body() == null ? "" : answer.body();
            notes.add(what + " answered " + answer.statusCode() + ": " + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
        }
    }

    /** A CVM crashed from the simulator (its process killed, for a backed one); never Patroni's leader (ChaosPlan). */
    private void crash(String cvm) throws Exception {
        String target = cvm;
        if (cvm.startsWith(ChaosFleet.PGHA.name() + "-")) {
            String leader = patroniLeader();
            if (cvm.equals(leader)) {
                target = ChaosFleet.PGHA.slot((ChaosFleet.ordinal(cvm) + 1) % ChaosFleet.PGHA.replicas());
            }
        }
        HttpResponse<String> answer = cluster.admin("POST", "/cvms/" + target + "/crash", null);
        if (answer.statusCode() / 100 == 2) {
            crashes.computeIfAbsent(target, k -> new CopyOnWriteArrayList<>()).add(Instant.now());
            count(faults, "CVM crash");
        } else {
            notes.add("crash of " + target + " answered " + answer.statusCode() + ": " + answer.body());
        }
    }

    private String patroniLeader() {
        for (var node : cluster.patroni.nodes()) {
            try {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(node.restApi().resolve("/leader"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return node.name();
                }
            } catch (Exception notThisOne) {
                // next
            }
        }
        return null;
    }

    private void phalaFault(String kind, Map<String, Object> fault) throws Exception {
        HttpResponse<String> answer = cluster.admin("POST", "/faults", fault);
        if (answer.statusCode() / 100 == 2) {
            count(faults, kind);
        } else {
            notes.add(kind + " not injected: " + answer.statusCode() + " " + answer.body());
        }
    }

    /** The member's process stopped with SIGSTOP: its APIs hang, probes time out; SIGCONT after {@code seconds}. */
    private void freeze(String member, int seconds) throws Exception {
        long pid = member.startsWith("etcd") ? cluster.etcd.pid(member) : cluster.patroni.pid(member);
        if (pid <= 0) {
            notes.add("probe timeout: " + member + " has no process");
            return;
        }
        signal("STOP", pid);
        frozen.add(pid);
        count(faults, "probe timeout (process frozen)");
        try {
            Thread.sleep(seconds * 1000L);
        } finally {
            signal("CONT", pid);
            frozen.remove(pid);
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
    }

    // --- the operator ---------------------------------------------------------------------------------------------------

    /** Answers the procedures' tasks as an operator would: retry twice, then give up. */
    private void operate() {
        ChaosCluster.Node node = cluster.liveNode();
        if (node == null) {
            return;
        }
        try {
            for (JsonNode task : node.api.getJson("/engine-rest/task?maxResults=50")) {
                String key = task.path("taskDefinitionKey").asText();
                String id = task.path("id").asText();
                int seen = decisions.merge(task.path("processInstanceId").asText() + "/" + key, 1, Integer::sum);
                Map<String, Object> variables = switch (key) {
                    case "UserTask_RolloutHalted" -> decision(seen <= 2 ? "retry" : "abort");
                    case "UserTask_HookDidNotFinish" -> decision(seen <= 2 ? "retry" : "abort");
                    case "UserTask_HandOver" -> decision(seen <= 2 ? "retry" : "resolved");
                    case "UserTask_AddHalted", "UserTask_RemoveHalted" -> decision(seen <= 2 ? "retry" : "stop");
                    default -> key.startsWith("UserTask_Approve") ? Map.of("approved", Map.of("value", true, "type", "Boolean")) : null;
                };
                if (variables == null) {
                    notes.add("task left open: " + key + " " + task.path("name").asText());
                    continue;
                }
                HttpResponse<String> done = node.api.postJson("/engine-rest/task/" + id + "/complete", Map.of("variables", variables));
                if (done.statusCode() / 100 == 2) {
                    count(operations, "operator: " + key + " " + variables.values().iterator().next());
                }
            }
        } catch (Exception unreachable) {
            // the node died or the database is restarting: next second
        }
    }

    private static Map<String, Object> decision(String value) {
        return Map.of("decision", Map.of("value", value, "type", "String"));
    }

    // --- the sampler ----------------------------------------------------------------------------------------------------

    private void sample() {
        try (Connection db = cluster.database()) {
            Instant at = Instant.now();
            List<CvmSeen> cvms = new ArrayList<>();
            for (JsonNode cvm : cluster.cvms().values()) {
                cvms.add(new CvmSeen(cvm.path("name").asText(), cvm.path("vm_uuid").asText(null),
                        cvm.path("instance_id").asText(null), cvm.path("status").asText()));
            }
            Set<String> fenced = new HashSet<>();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT replica_set, ordinal FROM orch_slot_fence")) {
                while (rs.next()) {
                    fenced.add(rs.getString(1) + "/" + rs.getInt(2));
                }
            }
            Map<String, Boolean> ready = new HashMap<>();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT replica_set, ordinal, status FROM orch_instance_condition WHERE type = 'Ready'")) {
                while (rs.next()) {
                    ready.put(rs.getString(1) + "/" + rs.getInt(2), rs.getBoolean(3));
                }
            }
            List<Row> rows = new ArrayList<>();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT replica_set, ordinal, instance_id, status,"
                    + " healthy, attested, attested_at, observed_at FROM orch_instance")) {
                while (rs.next()) {
                    String slot = rs.getString(1) + "/" + rs.getInt(2);
                    rows.add(new Row(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                            (Boolean) rs.getObject(5), (Boolean) rs.getObject(6), instant(rs.getObject(7, OffsetDateTime.class)),
                            instant(rs.getObject(8, OffsetDateTime.class)), ready.get(slot), fenced.contains(slot)));
                }
            }
            samples.add(new Sample(at, cvms, rows));
        } catch (Exception unreachable) {
            // the database restarts, or the simulator is busy: no sample this second
        }
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }

    // --- the quiet end ----------------------------------------------------------------------------------------------------

    private void settle() throws Exception {
        cluster.admin("DELETE", "/faults", null);
        for (long pid : frozen) {
            signal("CONT", pid);
        }
        for (int i = 0; i < cluster.nodes(); i++) {
            if (!cluster.node(i).up()) {
                cluster.start(i);
            }
        }
        for (int i = 0; i < cluster.nodes(); i++) {
            cluster.awaitReady(i);
        }
        try {
            org.awaitility.Awaitility.await().atMost(SETTLE).pollInterval(Duration.ofSeconds(1))
                    .until(() -> running() == 0 && cluster.fleetRunning());
        } catch (org.awaitility.core.ConditionTimeoutException notSettled) {
            // what is still running or down is noted below
        }
        int left = running();
        if (left > 0) {
            notes.add(left + " procedure(s) still running " + SETTLE.toSeconds() + " s after the last step: " + runningNames()
                    + "; deleted to start the next seed clean");
            deleteRunning();
        }
        if (!cluster.fleetRunning()) {
            notes.add("not every CVM runs " + SETTLE.toSeconds() + " s after the last step: " + String.join(", ", cluster.notRunning()));
        }
    }

    private int running() {
        try {
            return runningInstances().size();
        } catch (Exception notNow) {
            return Integer.MAX_VALUE;
        }
    }

    private List<JsonNode> runningInstances() throws Exception {
        ChaosCluster.Node node = cluster.liveNode();
        List<JsonNode> list = new ArrayList<>();
        for (JsonNode instance : node.api.getJson("/engine-rest/process-instance?maxResults=1000&processDefinitionKeyIn=" + String.join(",", PROCEDURES))) {
            list.add(instance);
        }
        return list;
    }

    private String runningNames() {
        try {
            return runningInstances().stream().map(i -> i.path("definitionId").asText().split(":")[0] + " " + i.path("businessKey").asText()
                    + " " + i.path("id").asText()).collect(Collectors.joining(", "));
        } catch (Exception e) {
            return "?";
        }
    }

    private void deleteRunning() throws Exception {
        ChaosCluster.Node node = cluster.liveNode();
        for (JsonNode instance : runningInstances()) {
            node.api.delete("/engine-rest/process-instance/" + instance.path("id").asText() + "?skipCustomListeners=true");
        }
    }

    // --- what is read at the end ------------------------------------------------------------------------------------------

    private List<Event> journal() throws Exception {
        List<Event> events = new ArrayList<>();
        for (JsonNode e : cluster.simulator.getJson("/simulator/_admin/events?sinceSeq=0")) {
            events.add(new Event(e.get("seq").asLong(), Instant.parse(e.get("at").asText()), e.get("cvm").asText(),
                    e.path("vmUuid").asText(null), e.get("from").isNull() ? null : e.get("from").asText(), e.get("to").asText()));
        }
        return events;
    }

    private List<Intent> intents(Instant from) throws SQLException {
        List<Intent> intents = new ArrayList<>();
        try (Connection db = cluster.database(); PreparedStatement q = db.prepareStatement("SELECT intent_key, slot, effect, attempts,"
                + " first_intended_at, state, procedure_key FROM orch_effect_intent ORDER BY first_intended_at")) {
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    intents.add(new Intent(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                            rs.getObject(5, OffsetDateTime.class).toInstant(), rs.getString(6), rs.getString(7)));
                }
            }
        }
        return intents;
    }

    /** How the seed's procedures ended (process key and end state), and the incidents raised during the seed. */
    private Map<String, Integer> procedures(Instant from) throws SQLException {
        Map<String, Integer> ended = new TreeMap<>();
        try (Connection db = cluster.database()) {
            try (PreparedStatement q = db.prepareStatement("SELECT proc_def_key_, state_, count(*) FROM act_hi_procinst"
                    + " WHERE start_time_ >= ? AND proc_def_key_ IN ('rollout','heal','scale','failover','admit-instance')"
                    + " GROUP BY proc_def_key_, state_")) {
                q.setTimestamp(1, Timestamp.from(from));
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        ended.put(rs.getString(1) + " " + rs.getString(2), rs.getInt(3));
                    }
                }
            }
            try (PreparedStatement q = db.prepareStatement("SELECT count(*) FROM act_hi_incident WHERE create_time_ >= ?")) {
                q.setTimestamp(1, Timestamp.from(from));
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    ended.put("incidents", rs.getInt(1));
                }
            }
        }
        return ended;
    }

    // --- the workloads' writers -----------------------------------------------------------------------------------------

    /** Puts a key every 200 ms through any member that answers; each acknowledged put must be there at the end. */
    private static final class EtcdWriter {
        private final List<URI> members;
        private final String prefix;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        private final AtomicLong next = new AtomicLong();
        private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();

        EtcdWriter(ChaosCluster cluster, long seed) {
            this.members = cluster.etcd.members().stream().map(m -> m.clientUrl()).toList();
            this.prefix = "chaos/" + seed + "/";
        }

        void writeOne() {
            long id = next.incrementAndGet();
            List<URI> order = new ArrayList<>(members);
            Collections.shuffle(order);
            for (URI member : order) {
                try {
                    HttpResponse<String> r = post(member, "/v3/kv/put", Map.of("key", b64(prefix + id), "value", b64(Long.toString(id))));
                    if (r.statusCode() == 200 && JSON.readTree(r.body()).has("header")) {
                        acknowledged.add(id);
                        return;
                    }
                } catch (Exception tryAnother) {
                    // next member
                }
            }
        }

        ChaosCheck.Writes result() throws Exception {
            Set<Long> present = new HashSet<>();
            for (URI member : members) {
                try {
                    HttpResponse<String> r = post(member, "/v3/kv/range", Map.of("key", b64(prefix), "range_end", b64(prefix.substring(0,
                            prefix.length() - 1) + "0"), "keys_only", true));
                    if (r.statusCode() == 200) {
                        for (JsonNode kv : JSON.readTree(r.body()).path("kvs")) {
                            String key = new String(Base64.getDecoder().decode(kv.get("key").asText()), StandardCharsets.UTF_8);
                            present.add(Long.parseLong(key.substring(prefix.length())));
                        }
                        break;
                    }
                } catch (Exception tryAnother) {
                    // next member
                }
            }
            Set<Long> lost = new HashSet<>(acknowledged);
            lost.removeAll(present);
            return new ChaosCheck.Writes("etcd", acknowledged.size(), lost);
        }

        private HttpResponse<String> post(URI member, String path, Object body) throws Exception {
            return http.send(HttpRequest.newBuilder(member.resolve(path)).timeout(Duration.ofSeconds(2))
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
        }

        private static String b64(String text) {
            return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Inserts a row every 200 ms through whichever Patroni node is the primary; each acknowledged commit must stay. */
    private static final class SqlWriter implements AutoCloseable {
        private final String url;
        private final Properties properties = new Properties();
        private final String table;
        private final AtomicLong next = new AtomicLong();
        private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        private Connection connection;

        SqlWriter(ChaosCluster cluster, long seed) {
            url = "jdbc:postgresql://" + cluster.patroni.nodes().stream().map(n -> "127.0.0.1:" + n.pgPort())
                    .collect(Collectors.joining(",")) + "/postgres";
            properties.setProperty("user", com.statefulcvm.workloads.PatroniClusterFixture.SUPERUSER);
            properties.setProperty("password", com.statefulcvm.workloads.PatroniClusterFixture.SUPERUSER_PASSWORD);
            properties.setProperty("targetServerType", "primary");
            properties.setProperty("hostRecheckSeconds", "1");
            properties.setProperty("connectTimeout", "2");
            properties.setProperty("socketTimeout", "5");
            table = "chaos_writes_" + seed;
        }

        void createTable() throws SQLException {
            try (Connection c = DriverManager.getConnection(url, properties); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS " + table + " (id bigint PRIMARY KEY)");
            }
        }

        synchronized void writeOne() {
            long id = next.incrementAndGet();
            try {
                if (connection == null) {
                    connection = DriverManager.getConnection(url, properties);
                }
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
                    insert.setLong(1, id);
                    insert.executeUpdate();
                }
                acknowledged.add(id);
            } catch (SQLException | RuntimeException e) {
                close();
            }
        }

        ChaosCheck.Writes result() throws SQLException {
            Set<Long> present = new HashSet<>();
            try (Connection c = DriverManager.getConnection(url, properties); Statement s = c.createStatement();
                 ResultSet rows = s.executeQuery("SELECT id FROM " + table)) {
                while (rows.next()) {
                    present.add(rows.getLong(1));
                }
            }
            Set<Long> lost = new HashSet<>(acknowledged);
            lost.removeAll(present);
            return new ChaosCheck.Writes("patroni", acknowledged.size(), lost);
        }

        @Override
        public synchronized void close() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // broken anyway
                }
                connection = null;
            }
        }
    }
}
