package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetrySettingsTest {

    @Test
    void defaultsFollowTheApiDoc() {
        RetrySettings defaults = RetrySettings.defaults();
        assertThat(defaults.maxAttempts()).isEqualTo(3);
        assertThat(defaults.initialBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.maxBackoff()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void backoffDoublesUntilTheCap() {
        RetrySettings settings = new RetrySettings(4, Duration.ofSeconds(1), Duration.ofSeconds(20));
        assertThat(settings.backoff(0)).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.backoff(1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.backoff(4)).isEqualTo(Duration.ofSeconds(16));
        assertThat(settings.backoff(5)).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.backoff(500)).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void capLimitsRetryAfter() {
        RetrySettings settings = new RetrySettings(3, Duration.ofMillis(5), Duration.ofMillis(50));
        assertThat(settings.cap(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(50));
        assertThat(settings.cap(Duration.ofMillis(10))).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void nullsTakeDefaultsAndNonsenseIsRejected() {
        RetrySettings settings = new RetrySettings(2, null, null);
        assertThat(settings.initialBackoff()).isEqualTo(RetrySettings.DEFAULT_INITIAL_BACKOFF);
        assertThat(settings.maxBackoff()).isEqualTo(RetrySettings.DEFAULT_MAX_BACKOFF);
        assertThatThrownBy(() -> new RetrySettings(0, null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetrySettings(2, Duration.ofMillis(-1), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
