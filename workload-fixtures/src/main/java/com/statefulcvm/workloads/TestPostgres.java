package com.statefulcvm.workloads;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real PostgreSQL server of the tests: {@code .ci/run} and {@code ./run-tests} start one with
 * {@code workloads/postgres-server.sh} and export {@code ORCH_TEST_PG_URL}, {@code ORCH_TEST_PG_USER} and
 * {@code ORCH_TEST_PG_PASSWORD} (system properties of the same names, lower-case with dots, win). Without them a test
 * that needs the server is skipped, with a message that says so. The user may create databases, so each test makes
 * a fresh one of its own and drops it afterwards.
 */
public final class TestPostgres {

    static final String URL = "ORCH_TEST_PG_URL";
    static final String USER = "ORCH_TEST_PG_USER";
    static final String PASSWORD = "ORCH_TEST_PG_PASSWORD";

    private static final Pattern JDBC_URL = Pattern.compile("(jdbc:postgresql://[^/]+/)([^?]*)(\\?.*)?");

    public final String url;
    public final String user;
    public final String password;

    private TestPostgres(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** The server, or the test is skipped (a JUnit assumption) naming what is missing. */
    public static TestPostgres requireServer() {
        String url = setting(URL);
        String user = setting(USER);
        String password = setting(PASSWORD);
        assumeTrue(url != null && user != null && password != null,
                "No PostgreSQL for this test: " + URL + ", " + USER + " and " + PASSWORD + " are not all set. "
                        + "./run-tests and .ci/run start a throwaway server with workloads/postgres-server.sh when the "
                        + "PostgreSQL server binaries are installed (docs/operations.md, 'Tests with a real PostgreSQL').");
        return new TestPostgres(url, user, password);
    }

    private static String setting(String name) {
        String value = System.getProperty(name.toLowerCase().replace('_', '.'));
        if (value == null || value.isBlank()) {
            value = System.getenv(name);
        }
        return value == null || value.isBlank() ? null : value;
    }

    /** Creates an empty database owned by the test user and answers its JDBC URL. */
    public String createDatabase(String prefix) throws SQLException {
        String name = prefix + "_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return urlOf(name);
    }

    public void dropDatabase(String jdbcUrl) {
        Matcher m = JDBC_URL.matcher(jdbcUrl);
        if (!m.matches()) {
            return;
        }
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + m.group(2) + " WITH (FORCE)");
        } catch (SQLException e) {
            System.out.println("TestPostgres: could not drop " + m.group(2) + ": " + e.getMessage());
        }
    }

    public Connection connect(String jdbcUrl) throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    private String urlOf(String database) {
        Matcher m = JDBC_URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException(URL + " is not a jdbc:postgresql://host:port/database URL: " + url);
        }
        return m.group(1) + database + (m.group(3) == null ? "" : m.group(3));
    }
}
