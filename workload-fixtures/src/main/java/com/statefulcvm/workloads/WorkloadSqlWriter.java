package com.statefulcvm.workloads;


import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A client of the Patroni cluster: inserts one row every 100 ms through whichever node is the primary now (JDBC's
 * multi-host URL with {@code targetServerType=primary}), reconnecting after any failure, and records each row whose
 * commit was acknowledged. PostgreSQL's protocol is not HTTP, so it connects to the nodes' ports directly, as a
 * client inside the CVMs' network would.
 */
public final class WorkloadSqlWriter implements AutoCloseable {

    public static final String TABLE = "rollout_writes";

    private final String url;
    private final Properties properties = new Properties();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "patroni-writer");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong nextId = new AtomicLong(1);
    private final WorkloadWriteLog log = new WorkloadWriteLog();
    private Connection connection;

    public WorkloadSqlWriter(List<PatroniClusterFixture.Node> nodes) {
        url = "jdbc:postgresql://" + nodes.stream().map(n -> "127.0.0.1:" + n.pgPort()).collect(Collectors.joining(","))
                + "/postgres";
        properties.setProperty("user", PatroniClusterFixture.SUPERUSER);
        properties.setProperty("password", PatroniClusterFixture.SUPERUSER_PASSWORD);
        properties.setProperty("targetServerType", "primary");
        // the driver remembers which host was a replica; a switchover must not hide the new primary for long
        properties.setProperty("hostRecheckSeconds", "1");
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("loginTimeout", "3");
        properties.setProperty("socketTimeout", "5");
        properties.setProperty("ApplicationName", "rollout-writer");
    }

    String url() {
        return url;
    }

    public WorkloadWriteLog log() {
        return log;
    }

    Connection connectToPrimary() throws SQLException {
        return DriverManager.getConnection(url, properties);
    }

    /**
     * Creates the writes' table once a primary accepts it: asked again until then (within a minute), since a cluster
     * that reports healthy may still be slow to take a connection on a loaded machine; a one-shot connect under the
     * 3 s login timeout made the test's precondition depend on the machine's speed.
     */
    public void createTable() {
        await("a primary accepts the writes' table").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(SQLException.class).until(() -> {
                    try (Connection c = connectToPrimary(); Statement s = c.createStatement()) {
                        s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id bigint PRIMARY KEY, written_at timestamptz NOT NULL "
                                + "DEFAULT clock_timestamp())");
                    }
                    return true;
                });
    }

    /** Starts writing: one insert every 100 ms (a slow attempt delays the next one, never overlaps it). */
    public void start() {
        executor.scheduleAtFixedRate(this::writeOne, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void writeOne() {
        long id = nextId.getAndIncrement();
        try {
            if (connection == null) {
                connection = connectToPrimary();
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE + " (id) VALUES (?)")) {
                insert.setLong(1, id);
                insert.executeUpdate(); // auto-commit: returns once the commit is acknowledged
            }
            log.acknowledged(id, Instant.now());
        } catch (SQLException | RuntimeException e) {
            log.failed("insert " + id + ": " + e.getMessage());
            closeConnection();
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // it is broken anyway
            }
            connection = null;
        }
    }

    /** Every id in the table, read from the primary. */
    public Set<Long> idsInTable() throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = connectToPrimary(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT id FROM " + TABLE)) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    /** Acknowledged inserts missing from the table: commits lost. */
    public Set<Long> lostCommits() throws SQLException {
        Set<Long> inTable = idsInTable();
        return log.acknowledged().stream().map(WorkloadWriteLog.Write::id).filter(id -> !inTable.contains(id))
                .collect(Collectors.toCollection(HashSet::new));
    }

    /** Runs the action on the writer's own thread, between two inserts: none is under way while it runs. */
    public <T> T betweenWrites(Callable<T> action) throws Exception {
        return executor.submit(action).get(60, TimeUnit.SECONDS);
    }

    /**
     * Waits until a replica has received all the WAL the primary has flushed, so every commit acknowledged so far:
     * asynchronous replication ships a commit just after acknowledging it.
     */
    public static void awaitReceived(PatroniClusterFixture.Node primary, PatroniClusterFixture.Node replica) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
            String flushed = queryOne(primary, "SELECT pg_current_wal_flush_lsn()::text");
            return "true".equals(queryOne(replica, "SELECT (pg_last_wal_receive_lsn() >= '" + flushed + "'::pg_lsn)::text"));
        });
    }

    public static String queryOne(PatroniClusterFixture.Node node, String sql) throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", PatroniClusterFixture.SUPERUSER);
        login.setProperty("password", PatroniClusterFixture.SUPERUSER_PASSWORD);
        login.setProperty("connectTimeout", "2");
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + node.pgPort() + "/postgres", login);
             Statement s = c.createStatement(); ResultSet row = s.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }

    /** Stops writing; the last attempt under way finishes first. */
    @Override
    public void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(30, TimeUnit.SECONDS);
        closeConnection();
    }
}
