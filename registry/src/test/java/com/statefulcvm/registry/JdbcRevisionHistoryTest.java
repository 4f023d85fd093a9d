package com.statefulcvm.registry;

import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.Revision;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JdbcRevisionHistoryTest {

    /** The H2 the application runs on by default; {@link JdbcRevisionHistoryOnPostgresTest} runs the same on PostgreSQL. */
    RegistryDatabase database() {
        return RegistryDatabase.h2();
    }

    private static final String V1 = "services:\n  web:\n    image: nginx:1\n";
    private static final String V2 = "services:\n  web:\n    image: nginx:2\n";

    private final RegistryDatabase db = database();
    private final RegistryDatabase.MutableClock clock = new RegistryDatabase.MutableClock(Instant.parse("2026-01-01T10:00:00Z"));
    private final JdbcRevisionHistory history = new JdbcRevisionHistory(db.jdbc, db.transactions, clock);

    @Test
    void recordingTheSameComposeAgainAnswersTheSameRevision() {
        Revision first = history.record("web", V1, "alice", "first");
        clock.advance(java.time.Duration.ofMinutes(5));
        // line endings and trailing blank space do not make another compose
        Revision again = history.record("web", V1.replace("\n", "\r\n") + "\n\n  ", "bob", "again");

        assertThat(first.number()).isEqualTo(1);
        assertThat(again).isEqualTo(first);
        assertThat(first.digest()).isEqualTo(ComposeText.digest(V1));
        assertThat(first.createdBy()).isEqualTo("alice");
        assertThat(first.createdAt()).isEqualTo(Instant.parse("2026-01-01T10:00:00Z"));
        assertThat(first.composeHash()).isNull();
        assertThat(history.revisions("web")).hasSize(1);
    }

    @Test
    void numbersCountFromOnePerSetAndTheListIsNewestFirst() {
        assertThat(history.record("web", V1, "alice", "r1").number()).isEqualTo(1);
        assertThat(history.record("web", V2, "alice", "r2").number()).isEqualTo(2);
        assertThat(history.record("db", V2, "alice", "other set").number()).isEqualTo(1);
        assertThat(history.record("web", V1, "alice", "back to v1").number()).as("a rollback reuses the revision").isEqualTo(1);

        assertThat(history.revisions("web")).extracting(Revision::number).containsExactly(2, 1);
        assertThat(history.revision("web", 2)).get().extracting(Revision::dockerCompose, Revision::reason).containsExactly(V2, "r2");
        assertThat(history.revision("web", 3)).isEmpty();
        assertThat(history.revisions("nope")).isEmpty();
    }

    @Test
    void currentAndUpdateRevisionArePointersThatMoveIndependently() {
        history.record("web", V1, "fleet file", "initial");
        history.record("web", V2, "alice", "rollout");
        assertThat(history.currentRevision("web")).isEmpty();
        assertThat(history.updateRevision("web")).isEmpty();

        history.setCurrentRevision("web", 1);
        history.setUpdateRevision("web", 2);
        assertThat(history.currentRevision("web")).get().extracting(Revision::number).isEqualTo(1);
        assertThat(history.updateRevision("web")).get().extracting(Revision::number).isEqualTo(2);

        history.setCurrentRevision("web", 2);
        assertThat(history.currentRevision("web")).get().extracting(Revision::number).isEqualTo(2);
        assertThat(history.pointers("web")).isEqualTo(new JdbcRevisionHistory.Pointers(2, 2));
        assertThatThrownBy(() -> history.setUpdateRevision("web", 7)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no revision 7");
    }

    @Test
    void theComposeHashIsRememberedOnceKnown() {
        history.record("web", V1, "alice", "r1");
        history.recordComposeHash("web", 1, "abc123");
        assertThat(history.revision("web", 1)).get().extracting(Revision::composeHash).isEqualTo("abc123");
        history.setCurrentRevision("web", 1);
        assertThat(history.currentRevision("web")).get().extracting(Revision::composeHash).isEqualTo("abc123");
    }

    @Test
    void aLargeComposeFits() {
        String big = "services:\n  web:\n    image: x\n    environment:\n" + "      - A=" + "a".repeat(250_000) + "\n";
        Revision revision = history.record("web", big, "alice", "big");
        assertThat(history.revision("web", revision.number())).get().extracting(Revision::dockerCompose).isEqualTo(big);
    }

    @Test
    void concurrentRecordsAgreeOnOneNumberPerCompose() throws Exception {
        List<String> composes = List.of(V1, V2, "services:\n  web:\n    image: nginx:3\n");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        Map<String, Integer> numbers = new ConcurrentHashMap<>();
        List<Future<?>> results = new ArrayList<>();
        TransactionTemplate outer = new TransactionTemplate(db.transactions);
        try {
            for (int i = 0; i < 24; i++) {
                String compose = composes.get(i % composes.size());
                results.add(pool.submit(() -> {
                    start.await();
                    // as a delegate does: inside a transaction of its own that must survive a lost race
                    Revision r = outer.execute(status -> history.record("web", compose, "t", "race"));
                    Integer previous = numbers.putIfAbsent(compose, r.number());
                    assertThat(previous == null || previous == r.number()).isTrue();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> result : results) {
                result.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(history.revisions("web")).extracting(Revision::number).containsExactly(3, 2, 1);
        assertThat(numbers.values()).containsExactlyInAnyOrder(1, 2, 3);
    }

    @Test
    void timesSurviveTheRoundTripInUtc() {
        clock.advance(java.time.Duration.ofMillis(123));
        Revision r = history.record("web", V1, "alice", "r1");
        assertThat(history.revision("web", 1).orElseThrow().createdAt().truncatedTo(ChronoUnit.MILLIS))
                .isEqualTo(r.createdAt().truncatedTo(ChronoUnit.MILLIS));
    }
}
