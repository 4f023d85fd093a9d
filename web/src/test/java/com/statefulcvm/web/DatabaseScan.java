package com.statefulcvm.web;

import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Searches every text and binary column of every table (the engine's and ours) for values that must not be stored:
 * what the secrecy tests use to show a secret is in no table.
 */
public final class DatabaseScan {

    private static final Set<Integer> TEXT = Set.of(Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.CLOB, Types.NCHAR,
            Types.NVARCHAR, Types.LONGNVARCHAR, Types.NCLOB);
    private static final Set<Integer> BINARY = Set.of(Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB);

    private DatabaseScan() {
    }

    public record Scan(Set<String> tables, Map<String, List<String>> hits) {
        public List<String> tablesContaining(String needle) {
            return hits.getOrDefault(needle, List.of());
        }
    }

    /** Every text and binary column of every table, as text (binary as UTF-8 and ISO-8859-1), searched for each needle. */
    public static Scan scan(DataSource dataSource, List<String> needles) throws SQLException {
        Set<String> tables = new TreeSet<>();
        Map<String, List<String>> hits = new LinkedHashMap<>();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            List<String> names = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    if (!"INFORMATION_SCHEMA".equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                        names.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
                    }
                }
            }
            for (String qualified : names) {
                String schema = qualified.substring(0, qualified.indexOf('.'));
                String table = qualified.substring(qualified.indexOf('.') + 1);
                List<String> columns = new ArrayList<>();
                try (ResultSet rs = meta.getColumns(null, schema, table, "%")) {
                    while (rs.next()) {
                        int type = rs.getInt("DATA_TYPE");
                        if (TEXT.contains(type) || BINARY.contains(type)) {
                            columns.add(rs.getString("COLUMN_NAME"));
                        }
                    }
                }
                tables.add(table.toUpperCase());
                if (columns.isEmpty()) {
                    continue;
                }
                String select = "select " + String.join(", ", columns.stream().map(c -> "\"" + c + "\"").toList())
                        + " from \"" + schema + "\".\"" + table + "\"";
                jdbc.query(select, rs -> {
                    for (int i = 1; i <= columns.size(); i++) {
                        String value = text(rs.getObject(i));
                        for (String needle : needles) {
                            if (value != null && value.contains(needle)) {
                                List<String> where = hits.computeIfAbsent(needle, k -> new ArrayList<>());
                                if (!where.contains(table.toUpperCase())) {
                                    where.add(table.toUpperCase());
                                }
                            }
                        }
                    }
                });
            }
        }
        return new Scan(tables, hits);
    }

    private static String text(Object value) throws SQLException {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8) + "\n" + new String(bytes, StandardCharsets.ISO_8859_1);
        }
        if (value instanceof Blob blob) {
            return text(blob.getBytes(1, (int) blob.length()));
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) clob.length());
        }
        return value.toString();
    }
}
