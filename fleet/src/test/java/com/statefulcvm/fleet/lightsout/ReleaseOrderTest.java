package com.statefulcvm.fleet.lightsout;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseOrderTest {

    @Test
    void theSeedStartsAloneAndEachFollowerJoinsThoseServingBeforeIt() {
        List<String> followers = List.of("g-0", "g-2", "g-3");
        assertThat(ReleaseOrder.of("g-1", "g-1", List.of(), followers, Map.of()))
                .isEqualTo(new ReleaseOrder("g-1", "seed", "g-1", List.of()));
        assertThat(ReleaseOrder.of("g-0", "g-1", List.of(), followers, Map.of()).primaries()).containsExactly("g-1");
        assertThat(ReleaseOrder.of("g-3", "g-1", List.of(), followers, Map.of()).primaries()).containsExactly("g-1", "g-0", "g-2");
        assertThat(ReleaseOrder.of("g-3", "g-1", List.of(), followers, Map.of("g-2", "not admitted")).primaries())
                .as("a follower that did not join is nobody's primary").containsExactly("g-1", "g-0");
        assertThat(ReleaseOrder.of("g-3", "g-1", List.of(), followers, Map.of()).describe()).isEqualTo("a follower of g-1, joining g-1, g-0, g-2");
    }

    @Test
    void theSeedsQuorumPartnersJoinTheSeedAndFollowersJoinThemToo() {
        List<String> partners = List.of("e-2");
        List<String> followers = List.of("e-0", "e-2");   // a partner is a follower too once the seed passed its gate
        assertThat(ReleaseOrder.of("e-2", "e-1", partners, followers, Map.of()).primaries()).containsExactly("e-1");
        assertThat(ReleaseOrder.of("e-0", "e-1", partners, followers, Map.of()).primaries()).containsExactly("e-1", "e-2");
    }
}
