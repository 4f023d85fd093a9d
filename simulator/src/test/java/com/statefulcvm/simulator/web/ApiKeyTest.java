package com.statefulcvm.simulator.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.statefulcvm.simulator.SimClient;
import com.statefulcvm.simulator.SimulatorHttpTestBase;

class ApiKeyTest extends SimulatorHttpTestBase {

    private static final String UNKNOWN_APP = SimClient.API + "/apps/" + "0".repeat(40);

    @Test
    void missingOrWrongKeyAnswers401() {
        SimClient.Response missing = sim.send("GET", UNKNOWN_APP, null, null, null);
        assertThat(missing.status()).isEqualTo(401);
        assertThat(missing.body()).isEqualTo("{\"detail\":\"Missing or invalid API key\"}");
        assertThat(sim.send("GET", UNKNOWN_APP, null, null, "phak_wrong").status()).isEqualTo(401);
        assertThat(sim.send("GET", UNKNOWN_APP, null, null, API_KEY + "x").status()).isEqualTo(401);
        assertThat(sim.send("POST", SimClient.API + "/cvms/provision", "application/json", "{}", null).status())
                .isEqualTo(401);
    }

    @Test
    void configuredKeyPasses() {
        assertThat(sim.send("GET", UNKNOWN_APP, null, null, API_KEY).status()).isEqualTo(404);
    }

    @Test
    void adminAndGatewayNeedNoKey() {
        assertThat(sim.send("GET", SimClient.ADMIN + "/events", null, null, null).status()).isEqualTo(200);
        assertThat(sim.send("GET", "/simulator/gateway/" + "a".repeat(40) + "-80/", null, null, null).status())
                .isEqualTo(502);
    }
}
