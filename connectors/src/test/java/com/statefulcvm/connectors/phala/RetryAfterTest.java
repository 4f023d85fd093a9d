package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-05-22T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private static String httpDate(Instant instant) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atZone(ZoneOffset.UTC));
    }

    @Test
    void seconds() {
        assertThat(RetryAfter.parse("7", CLOCK)).contains(Duration.ofSeconds(7));
        assertThat(RetryAfter.parse(" 0 ", CLOCK)).contains(Duration.ZERO);
    }

    @Test
    void httpDateInTheFuture() {
        assertThat(RetryAfter.parse(httpDate(NOW.plusSeconds(12)), CLOCK)).contains(Duration.ofSeconds(12));
        assertThat(RetryAfter.parse("Fri, 22 May 2026 10:00:05 GMT", CLOCK)).contains(Duration.ofSeconds(5));
    }

    @Test
    void httpDateInThePastMeansNow() {
        assertThat(RetryAfter.parse(httpDate(NOW.minusSeconds(30)), CLOCK)).contains(Duration.ZERO);
    }

    @Test
    void absentOrGarbageIsEmpty() {
        assertThat(RetryAfter.parse(null, CLOCK)).isEmpty();
        assertThat(RetryAfter.parse("", CLOCK)).isEmpty();
        assertThat(RetryAfter.parse("soon", CLOCK)).isEmpty();
        assertThat(RetryAfter.parse("-3", CLOCK)).isEmpty();
        assertThat(RetryAfter.parse("99999999999999999999999", CLOCK)).isEmpty();
    }
}
