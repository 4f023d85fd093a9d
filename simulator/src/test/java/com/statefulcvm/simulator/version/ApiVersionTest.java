package com.statefulcvm.simulator.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.statefulcvm.simulator.cloud.ApiException;

/** Which version a header names; each version has its own views. */
class ApiVersionTest {

    @Test
    void absentOrBlankMeansTheOldest() {
        assertThat(ApiVersion.fromHeader(null)).isEqualTo(ApiVersion.V2025_10_28);
        assertThat(ApiVersion.fromHeader("  ")).isEqualTo(ApiVersion.OLDEST);
    }

    @Test
    void eachSupportedVersionByItsWireName() {
        assertThat(ApiVersion.fromHeader("2025-10-28")).isEqualTo(ApiVersion.V2025_10_28);
        assertThat(ApiVersion.fromHeader(" 2026-01-21 ")).isEqualTo(ApiVersion.V2026_01_21);
        assertThat(ApiVersion.fromHeader("2026-05-22")).isEqualTo(ApiVersion.V2026_05_22);
        for (ApiVersion version : ApiVersion.values()) {
            assertThat(version.views().version()).isEqualTo(version);
        }
    }

    @Test
    void anyOtherValueIsA400NamingTheSupportedOnes() {
        assertThatThrownBy(() -> ApiVersion.fromHeader("2024-01-01"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.body()).containsEntry("detail", "Unsupported API version '2024-01-01' in "
                            + "X-Phala-Version; supported: 2025-10-28, 2026-01-21, 2026-05-22");
                });
    }
}
