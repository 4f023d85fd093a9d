package com.statefulcvm.web.config;

import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The intents' own pool has, unless set, a connection for every thread that may ask for one while it holds its engine
 * connection (the job executor's and the step waker's): with fewer those threads queue with their transactions open.
 */
class EffectPoolSizeTest {

    @Test
    void unsetItHasOneConnectionPerJobAndWakerThreadSetItIsAsSet() {
        OrchestratorProperties properties = new OrchestratorProperties();
        CamundaBpmProperties camunda = new CamundaBpmProperties();
        camunda.getJobExecution().setMaxPoolSize(12);
        properties.getRollout().setWakerThreads(12);

        assertThat(EffectConfiguration.poolSize(properties, camunda)).isEqualTo(24);

        properties.getEffects().setPoolSize(3);
        assertThat(EffectConfiguration.poolSize(properties, camunda)).isEqualTo(3);
    }
}
