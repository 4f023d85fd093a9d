package com.statefulcvm.registry;

import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.SlotChange;
import com.statefulcvm.fleet.SlotChanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The instance registry on a real database, through the same Spring Data JDBC repositories the application uses.
 * Two engine nodes that observe a fresh replica set at once both find no row for a slot and both insert it; the loser
 * must update the winner's row inside its own (job) transaction, not fail it.
 */
class JdbcInstanceRegistryTest {

    /** The H2 the application runs on by default; {@link JdbcInstanceRegistryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private final RegistryDatabase db = database();
    private final AnnotationConfigApplicationContext context = context(db);
    private final InstanceRegistry registry = context.getBean(InstanceRegistry.class);
    private final TransactionTemplate jobTransaction = new TransactionTemplate(db.transactions);

    @AfterEach
    void close() {
        context.close();
    }

    @Test
    void savingASlotAgainUpdatesItsOneRow() {
        registry.save(record(0, "cvm-a", "starting"));
        registry.save(record(0, "cvm-a", "running"));
        assertThat(registry.instances("db")).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo("running");
            assertThat(r.cvmId()).isEqualTo("cvm-a");
        });
    }

    /**
     * A change of status, health or verdict is one row of the slot's history; a save that changes none of them (the
     * same state observed again, a new observation time) writes none; what the slot was before a window opens comes
     * with the window.
     */
    @Test
    void aSlotsHistoryHasARowPerChangeOfStatusHealthOrVerdictAndNoneForTheSameStateSavedAgain() {
        SlotChanges changes = new JdbcSlotChanges(db.jdbc);
        Instant start = Instant.now();
        registry.save(record(0, "cvm-a", "starting"));
        registry.save(record(0, "cvm-a", "running"));
        registry.save(with(record(0, "cvm-a", "running"), true, null));
        registry.save(with(record(0, "cvm-a", "running"), true, null)); // the same again: no row
        registry.save(with(record(0, "cvm-a", "running"), true, true));
        registry.save(with(record(1, "cvm-b", "running"), false, false));
        assertThat(changes.since("db", start.minusSeconds(1))).extracting(SlotChange::ordinal, SlotChange::status,
                SlotChange::healthy, SlotChange::attested).containsExactly(
                tuple(0, "starting", null, null), tuple(0, "running", null, null), tuple(0, "running", true, null),
                tuple(0, "running", true, true), tuple(1, "running", false, false));
        // a window opened after them: each slot's last change before it, what it was when the window opened
        assertThat(changes.since("db", Instant.now().plusSeconds(60))).extracting(SlotChange::ordinal, SlotChange::attested)
                .containsExactly(tuple(0, true), tuple(1, false));
        assertThat(changes.since("other", start.minusSeconds(1))).isEmpty();
    }

    private static InstanceRecord with(InstanceRecord r, Boolean healthy, Boolean attested) {
        return new InstanceRecord(r.replicaSet(), r.ordinal(), r.slot(), r.cvmId(), r.vmUuid(), r.instanceId(), r.composeHash(),
                r.status(), healthy, r.condition(), r.observedAt(), attested, r.attestation(), r.attestedAt());
    }

    @Test
    void concurrentFirstSavesOfTheSameSlotsAllSucceedWithOneRowEach() throws Exception {
        int writers = 8;
        int slots = 5;
        List<Callable<Void>> saves = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String status = "seen-by-" + w;
            saves.add(() -> {
                for (int ordinal = 0; ordinal < slots; ordinal++) {
                    int o = ordinal;
                    jobTransaction.executeWithoutResult(tx -> registry.save(record(o, "cvm-" + o, status)));
                }
                return null;
            });
        }
        runAtOnce(saves);
        List<InstanceRecord> rows = registry.instances("db");
        assertThat(rows).extracting(InstanceRecord::ordinal).containsExactly(0, 1, 2, 3, 4);
        assertThat(rows).allSatisfy(r -> assertThat(r.status()).startsWith("seen-by-"));
    }

    @Test
    void concurrentFirstSavesOfTheAppIdAgree() throws Exception {
        List<Callable<Void>> saves = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            saves.add(() -> {
                jobTransaction.executeWithoutResult(tx -> registry.saveCreatedAppId("db", "app-1"));
                return null;
            });
        }
        runAtOnce(saves);
        assertThat(registry.createdAppId("db")).contains("app-1");
    }

    /**
     * Two nodes (two application contexts, each with its own registry and connections) bootstrap the same fleet at
     * once: each records every slot of every set and the sets' app ids, as FleetBootstrap and the observer do. Every
     * save succeeds on both, and each slot ends with exactly one row.
     */
    @Test
    void twoNodesBootstrappingTheSameFleetAtOnceEndWithOneRowPerSlot() throws Exception {
        AnnotationConfigApplicationContext otherNode = context(db);
        try {
            List<InstanceRegistry> nodes = List.of(registry, otherNode.getBean(InstanceRegistry.class));
            List<String> sets = List.of("db", "etcd", "web");
            List<String> reversed = List.of("web", "etcd", "db");
            int slots = 10;
            List<Callable<Void>> bootstraps = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                InstanceRegistry node = nodes.get(n);
                String status = "seen-by-node-" + n;
                // two threads per node, in opposite set orders, so that the nodes collide on every set
                for (List<String> order : List.of(sets, reversed)) {
                    bootstraps.add(() -> {
                        for (String set : order) {
                            jobTransaction.executeWithoutResult(tx -> node.saveCreatedAppId(set, "app-" + set));
                            for (int ordinal = 0; ordinal < slots; ordinal++) {
                                int o = ordinal;
                                jobTransaction.executeWithoutResult(tx -> node.save(record(set, o, "cvm-" + set + "-" + o, status)));
                            }
                        }
                        return null;
                    });
                }
            }
            runAtOnce(bootstraps);
            for (String set : sets) {
                assertThat(db.jdbc.queryForObject("SELECT COUNT(*) FROM orch_instance WHERE replica_set = ?", Integer.class, set))
                        .as("rows of %s", set).isEqualTo(slots);
                assertThat(db.jdbc.queryForObject("SELECT COUNT(*) FROM orch_replica_set WHERE name = ?", Integer.class, set))
                        .as("app rows of %s", set).isEqualTo(1);
                for (InstanceRegistry node : nodes) {
                    assertThat(node.instances(set)).extracting(InstanceRecord::ordinal).containsExactlyElementsOf(
                            java.util.stream.IntStream.range(0, slots).boxed().toList());
                    assertThat(node.createdAppId(set)).contains("app-" + set);
                }
            }
        } finally {
            otherNode.close();
        }
    }

    private static void runAtOnce(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Void>> results = new ArrayList<>();
            for (Callable<Void> task : tasks) {
                results.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            for (Future<Void> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static InstanceRecord record(int ordinal, String cvmId, String status) {
        return record("db", ordinal, cvmId, status);
    }

    private static InstanceRecord record(String set, int ordinal, String cvmId, String status) {
        InstanceRecord empty = InstanceRecord.emptySlot(set, ordinal);
        return new InstanceRecord(set, ordinal, empty.slot(), cvmId, null, null, null, status, null, null,
                Instant.parse("2026-01-01T10:00:00Z"), null, null, null);
    }

    private static AnnotationConfigApplicationContext context(RegistryDatabase db) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.registerBean(DataSource.class, () -> db.dataSource);
        context.registerBean("transactionManager", PlatformTransactionManager.class, () -> db.transactions);
        context.register(Beans.class);
        context.refresh();
        return context;
    }

    @Configuration
    @EnableTransactionManagement
    @Import({RegistryJdbcConfiguration.class, JdbcInstanceRegistry.class})
    static class Beans {

        @Bean
        NamedParameterJdbcTemplate namedParameterJdbcTemplate(DataSource dataSource) {
            return new NamedParameterJdbcTemplate(dataSource);
        }

        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }
    }
}
