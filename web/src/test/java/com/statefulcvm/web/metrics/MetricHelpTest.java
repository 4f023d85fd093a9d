package com.statefulcvm.web.metrics;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every orchestrator meter scraped with HELP text, whichever way it was registered: {@code registry.counter(name,
 * tags)} gives no description, the filter adds it. (StartFormsTest checks the same on the running application's
 * {@code /actuator/prometheus}, so a meter added without an entry in MetricHelp fails there.)
 */
public class MetricHelpTest {

    @Test
    void everyKnownMeterIsScrapedWithItsHelpText() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new MetricHelp());
        registry.counter("orchestrator.procedures", "procedure", "rollout", "outcome", "RolloutCompleted").increment();
        registry.counter("orchestrator.procedure.starts", "procedure", "rollout", "result", "refused").increment();
        Timer.builder("orchestrator.step.duration").tags("procedure", "rollout", "step", "Task_PlanRollout").register(registry)
                .record(Duration.ofMillis(5));
        registry.counter("orchestrator.phala.retries", "operation", "get_cvm", "status", "503").increment();

        String scrape = registry.scrape();
        assertThat(scrape).contains("# HELP orchestrator_procedures_total " + MetricHelp.DESCRIPTIONS.get("orchestrator.procedures"))
                .contains("# HELP orchestrator_procedure_starts_total Starts of operator procedures")
                .contains("# HELP orchestrator_step_duration_seconds Time each BPMN step")
                .contains("# HELP orchestrator_phala_retries_total Phala Cloud API calls repeated");
        assertThat(helpLinesWithoutText(scrape)).isEmpty();
    }

    @Test
    void aDescriptionGivenWhereTheMeterIsRegisteredIsKept() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new MetricHelp());
        io.micrometer.core.instrument.Counter.builder("orchestrator.procedures").description("said where it is counted")
                .register(registry).increment();
        assertThat(registry.scrape()).contains("# HELP orchestrator_procedures_total said where it is counted");
    }

    /** The {@code # HELP orchestrator_...} lines of a scrape that carry no text after the metric's name. */
    public static java.util.List<String> helpLinesWithoutText(String scrape) {
        return scrape.lines().filter(line -> line.startsWith("# HELP orchestrator_"))
                .filter(line -> line.split(" ", 4).length < 4 || line.split(" ", 4)[3].isBlank())
                .toList();
    }
}
