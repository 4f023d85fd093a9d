package com.statefulcvm.fleet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlotsAndComposeTest {

    @Test
    void ordinalsComeFromTheSlotNameOfTheirOwnSetOnly() {
        assertThat(Slots.name("patroni-demo", 2)).isEqualTo("patroni-demo-2");
        assertThat(Slots.ordinalOf("patroni-demo", "patroni-demo-2")).hasValue(2);
        assertThat(Slots.ordinalOf("patroni", "patroni-demo-2")).isEmpty();
        assertThat(Slots.ordinalOf("webdemo", "webdemo-x")).isEmpty();
        assertThat(Slots.ordinalOf("webdemo", "webdemo-99999999999999")).isEmpty();
    }

    @Test
    void diffShowsChangedLines() {
        String diff = ComposeText.diff("image: a\nport: 1\n", "image: b\nport: 1\n");
        assertThat(diff).contains("-image: a").contains("+image: b");
        assertThat(ComposeText.diff("x\n", "x")).isEqualTo("(no change)");
    }
}
