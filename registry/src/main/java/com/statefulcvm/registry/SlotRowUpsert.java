package com.statefulcvm.registry;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a slot's one row of a table keyed by {@code (replica_set, ordinal)}: an update, or an insert when there is
 * none, in the caller's transaction; an insert that loses to a concurrent writer updates instead ({@link InsertRace}).
 * Table and column names come from our code, never from input.
 */
final class SlotRowUpsert {

    private final JdbcTemplate jdbc;
    private final InsertRace race;

    SlotRowUpsert(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.race = new InsertRace(transactions);
    }

    /** Columns in the order given, with their values (null allowed). */
    static Map<String, Object> columns(Object... namesAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return out;
    }

    void save(String table, String replicaSet, int ordinal, Map<String, Object> values) {
        String names = String.join(", ", values.keySet());
        String update = "UPDATE " + table + " SET " + String.join(" = ?, ", values.keySet()) + " = ? WHERE replica_set = ? AND ordinal = ?";
        String insert = "INSERT INTO " + table + " (replica_set, ordinal, " + names + ") VALUES (?, ?"
                + ", ?".repeat(values.size()) + ")";
        List<Object> updateArgs = new ArrayList<>(values.values());
        updateArgs.add(replicaSet);
        updateArgs.add(ordinal);
        List<Object> insertArgs = new ArrayList<>(List.of(replicaSet, ordinal));
        insertArgs.addAll(values.values());
        InsertRace.retry("writing " + table + " of " + replicaSet + "-" + ordinal, () -> {
            if (jdbc.update(update, updateArgs.toArray()) > 0) {
                return Boolean.TRUE;
            }
            return race.tryInsert(() -> jdbc.update(insert, insertArgs.toArray())) ? Boolean.TRUE : null;
        });
    }

    static List<String> list(String joined) {
        return joined == null || joined.isBlank() ? Collections.emptyList() : List.of(joined.split(","));
    }
}
