package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PhalaCloudSettingsTest {

    @Test
    void defaults() {
        PhalaCloudSettings settings = new PhalaCloudSettings(null, null, null, null, null, null);
        assertThat(settings.baseUrl()).isEqualTo("https://cloud-api.phala.com/api/v1");
        assertThat(settings.apiVersion()).isEqualTo("2026-01-21");
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.retry()).isEqualTo(RetrySettings.defaults());
        assertThat(settings.hasApiKey()).isFalse();
    }

    @Test
    void trailingSlashOfTheBaseUrlIsDropped() {
        assertThat(PhalaCloudSettings.of("http://localhost:8080/api/v1//", "k").baseUrl())
                .isEqualTo("http://localhost:8080/api/v1");
    }

    @Test
    void toStringMasksTheApiKey() {
        PhalaCloudSettings settings = PhalaCloudSettings.of("http://x", "phak_supersecret123");
        assertThat(settings.toString()).doesNotContain("supersecret").doesNotContain("phak_").contains("apiKey=****");
        assertThat(PhalaCloudSettings.of("http://x", " ").toString()).contains("apiKey=<none>");
    }

    @Test
    void nonPositiveTimeoutsAreRejected() {
        assertThatThrownBy(() -> new PhalaCloudSettings(null, null, null, Duration.ZERO, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connectTimeout");
    }
}
