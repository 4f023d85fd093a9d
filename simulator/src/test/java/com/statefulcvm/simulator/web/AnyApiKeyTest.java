package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.statefulcvm.simulator.SimClient;

/** Without {@code simulator.api-key} any non-empty key passes, but a key is still required. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "simulator.enabled=true")
class AnyApiKeyTest {

    @LocalServerPort
    int port;

    @Test
    void anyNonEmptyKeyPasses() {
        SimClient sim = new SimClient(port, null);
        String path = SimClient.API + "/cvms/no-such-cvm";
        assertThat(sim.send("GET", path, null, null, "phak_anything").status()).isEqualTo(404);
        assertThat(sim.send("GET", path, null, null, "x").status()).isEqualTo(404);
        assertThat(sim.send("GET", path, null, null, null).status()).isEqualTo(401);
        assertThat(sim.send("GET", path, null, null, " ").status()).isEqualTo(401);
    }
}
