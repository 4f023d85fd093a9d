package com.statefulcvm.connectors.phala;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AppIdsTest {

    private static final String HEX = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void stripsThePrefix() {
        assertThat(AppIds.bare("app_" + HEX)).isEqualTo(HEX);
        assertThat(AppIds.bare(HEX)).isEqualTo(HEX);
        assertThat(AppIds.prefixed(HEX)).isEqualTo("app_" + HEX);
        assertThat(AppIds.prefixed("app_" + HEX)).isEqualTo("app_" + HEX);
    }

    @Test
    void blankIsRejected() {
        assertThatThrownBy(() -> AppIds.bare(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AppIds.bare(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
