package com.statefulcvm.fleet.lightsout;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SequenceNumbersTest {

    private static final List<String> SLOTS = List.of("kv-0", "kv-1", "kv-2");

    @Test
    void theLargestNumberIsTheSeedAndTheOthersFollowInOrdinalOrder() {
        SequenceNumbers numbers = new SequenceNumbers(SLOTS, Map.of("kv-0", 10L, "kv-1", 30L, "kv-2", 20L),
                Map.of("kv-1", "raft index 30"), Map.of());
        assertThat(numbers.seed()).contains("kv-1");
        assertThat(numbers.followersOf("kv-1")).containsExactly("kv-0", "kv-2");
        assertThat(numbers.report()).isEqualTo("kv-0: 10\nkv-1: 30 (raft index 30) <- largest: the seed\nkv-2: 20");
    }

    @Test
    void equalNumbersChooseTheLowestOrdinal() {
        assertThat(new SequenceNumbers(SLOTS, Map.of("kv-2", 7L, "kv-1", 7L), Map.of(), Map.of()).seed()).contains("kv-1");
    }

    @Test
    void aReplicaThatDidNotAnswerIsReportedAndNeverChosen() {
        SequenceNumbers numbers = new SequenceNumbers(SLOTS, Map.of("kv-0", 5L), Map.of(),
                Map.of("kv-1", "answered 'n/a', not an integer", "kv-2", "did not answer within PT5S"));
        assertThat(numbers.seed()).contains("kv-0");
        assertThat(numbers.report()).contains("kv-1: NO ANSWER: answered 'n/a', not an integer")
                .contains("kv-2: NO ANSWER: did not answer within PT5S");
        assertThat(new SequenceNumbers(SLOTS, Map.of(), Map.of(), Map.of("kv-0", "x")).seed()).isEmpty();
    }

    /** Issue 20: Patroni's (timeline, LSN) in that order: a replica on an older timeline with a higher LSN must not win. */
    @Test
    void aNewerTimelineWinsOverAHigherPositionOnAnOlderOne() {
        SequenceNumbers numbers = new SequenceNumbers(SLOTS, Map.of("kv-0", 900L, "kv-1", 500L, "kv-2", 480L), Map.of(), Map.of(),
                Map.of("kv-0", 1L, "kv-1", 2L, "kv-2", 2L), Map.of());
        assertThat(numbers.seed()).contains("kv-1");
        assertThat(numbers.report()).isEqualTo("kv-0: generation 1, 900\nkv-1: generation 2, 500 <- most recent (generation, then position): the seed"
                + "\nkv-2: generation 2, 480");
    }

    /** Issue 20: a fenced slot is listed, never the seed nor a follower. */
    @Test
    void aFencedSlotIsListedNeverSeededNorAFollower() {
        SequenceNumbers numbers = new SequenceNumbers(SLOTS, Map.of("kv-0", 10L, "kv-1", 99L, "kv-2", 5L), Map.of(), Map.of(), Map.of(),
                Map.of("kv-1", "fenced (stopped): attestation failed: QUOTE_INVALID"));
        assertThat(numbers.seed()).contains("kv-0");
        assertThat(numbers.seedable("kv-1")).isFalse();
        assertThat(numbers.followersOf("kv-0")).containsExactly("kv-2");
        assertThat(numbers.report()).contains("kv-1: FENCED, not started: fenced (stopped): attestation failed: QUOTE_INVALID");
    }

    /** A raft store's seed is released with the members it needs for a quorum: the most recent others, fenced never. */
    @Test
    void theSeedsQuorumPartnersAreTheMostRecentOthers() {
        List<String> five = List.of("kv-0", "kv-1", "kv-2", "kv-3", "kv-4");
        SequenceNumbers numbers = new SequenceNumbers(five, Map.of("kv-0", 10L, "kv-1", 40L, "kv-2", 30L, "kv-3", 30L, "kv-4", 50L),
                Map.of(), Map.of(), Map.of(), Map.of("kv-4", "fenced (stopped): attestation failed"));
        assertThat(numbers.seed()).contains("kv-1");
        assertThat(numbers.quorumPartnersOf("kv-1", 3)).as("majority of 5: two partners, kv-4 fenced, kv-2 before kv-3")
                .containsExactly("kv-2", "kv-3");
        assertThat(numbers.quorumPartnersOf("kv-1", 1)).as("a store that serves from one member").isEmpty();
        assertThat(numbers.quorumPartnersOf("kv-0", 3)).as("an operator's seed: the most recent others")
                .containsExactly("kv-1", "kv-2");
        assertThat(new SequenceNumbers(SLOTS, Map.of("kv-0", 3L), Map.of(), Map.of("kv-1", "x", "kv-2", "y"))
                .quorumPartnersOf("kv-0", 2)).as("only replicas that answered").isEmpty();
    }

    @Test
    void everyReplicaEmptyOnlyWhenAllThatMaySeedAnsweredZero() {
        assertThat(new SequenceNumbers(SLOTS, Map.of("kv-0", 0L, "kv-1", 0L, "kv-2", 0L), Map.of(), Map.of()).everyReplicaEmpty()).isTrue();
        assertThat(new SequenceNumbers(SLOTS, Map.of("kv-0", 0L, "kv-1", 1L, "kv-2", 0L), Map.of(), Map.of()).everyReplicaEmpty()).isFalse();
        assertThat(new SequenceNumbers(SLOTS, Map.of("kv-0", 0L, "kv-1", 0L), Map.of(), Map.of("kv-2", "no answer")).everyReplicaEmpty())
                .as("one did not answer: its data may be there").isFalse();
        assertThat(new SequenceNumbers(SLOTS, Map.of(), Map.of(), Map.of()).everyReplicaEmpty()).as("none answered: another refusal").isFalse();
    }
}
