package com.statefulcvm.web.metrics;

import com.statefulcvm.connectors.phala.PhalaCallObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * The Phala Cloud API's calls as meters: {@code orchestrator.phala.calls} (a timer per operation and HTTP status, 0 for
 * no answer; each attempt counts) and {@code orchestrator.phala.retries} (per operation and the status retried).
 */
@Component
public class PhalaCallMetrics implements PhalaCallObserver {

    private final MeterRegistry registry;

    PhalaCallMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void exchanged(String operation, int status, Duration took) {
        Timer.builder("orchestrator.phala.calls").tags("operation", operation, "status", String.valueOf(status))
                .register(registry).record(took);
    }

    @Override
    public void retried(String operation, int status) {
        registry.counter("orchestrator.phala.retries", "operation", operation, "status", String.valueOf(status)).increment();
    }
}
