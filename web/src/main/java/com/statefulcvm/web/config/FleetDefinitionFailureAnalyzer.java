package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad fleet file into a start-up message an operator can act on, instead of a bean-creation stack trace. */
public class FleetDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<FleetDefinitionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, FleetDefinitionException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Fix the fields named above in the fleet file (config/fleet.yaml by default, under orchestrator.fleet) and start again.",
                cause);
    }
}
