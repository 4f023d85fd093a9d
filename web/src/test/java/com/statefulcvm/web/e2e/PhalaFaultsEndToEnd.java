package com.statefulcvm.web.e2e;

import com.statefulcvm.web.E2eSupport;
import com.statefulcvm.web.SimulatorView;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/**
 * The one application context of the tests that make Phala or the node fail (ExactlyOnceEffectsEndToEndTest,
 * PhalaOutageEndToEndTest): the e2e and exactly-once profiles, short circuit-breaker waits, and a node that can be
 * made to "die" once right after Phala accepted a given call ({@link #DIE_AFTER}): the call went through, then the
 * job fails and its transaction rolls back, as after a kill -9 or a database restart. Shared, so it starts once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT, properties = {
        "orchestrator.phala-outage.first-wait=PT1S", "orchestrator.phala-outage.max-wait=PT2S",
        "orchestrator.fleet-reads.max-age=PT30S"})
@ActiveProfiles({"e2e", "exactly-once"})
@Import(PhalaFaultsEndToEnd.DyingNode.class)
abstract class PhalaFaultsEndToEnd {

    /** The Phala client call after which the node "dies" once; null: it never does. */
    static final AtomicReference<String> DIE_AFTER = new AtomicReference<>();
    static final AtomicInteger DIED = new AtomicInteger();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        E2eSupport.onFreePortWithDatabase(registry, "phala-faults-e2e");
    }

    /**
     * Asked of the simulator, not of the API: the API's detail of a set is read from Phala once per 30 s in this context
     * (fleet-reads.max-age), and a first read while the bootstrap's last CVM still starts would be its answer for that
     * long.
     */
    static void awaitAllRunningAtPhala(TestRestTemplate http, String set) {
        SimulatorView simulator = new SimulatorView(http);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                if (!"running".equals(simulator.cvm(set + "-" + ordinal).path("status").asText())) {
                    return false;
                }
            }
            return true;
        });
    }

    @TestConfiguration
    static class DyingNode {
        @Bean
        static BeanPostProcessor dieAfterAcceptedCall() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (!(bean instanceof PhalaCloudClient client)) {
                        return bean;
                    }
                    return Proxy.newProxyInstance(PhalaCloudClient.class.getClassLoader(), new Class<?>[] {PhalaCloudClient.class},
                            (proxy, method, args) -> {
                                Object answer;
                                try {
                                    answer = method.invoke(client, args);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                                if (DIE_AFTER.compareAndSet(method.getName(), null)) {
                                    DIED.incrementAndGet();
                                    throw new IllegalStateException("test: the node died after Phala accepted " + method.getName());
                                }
                                return answer;
                            });
                }
            };
        }
    }
}
