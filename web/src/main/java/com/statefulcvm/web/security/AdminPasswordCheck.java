package com.statefulcvm.web.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** The embedded default falls back to a well-known admin password; say so loudly (without printing any password). */
@Component
class AdminPasswordCheck {

    static final String VARIABLE = "ORCHESTRATOR_ADMIN_PASSWORD";
    private static final Logger log = LoggerFactory.getLogger(AdminPasswordCheck.class);

    private final Environment environment;

    AdminPasswordCheck(Environment environment) {
        this.environment = environment;
    }

    @EventListener(ApplicationReadyEvent.class)
    void warnAboutDefaultPassword() {
        String configured = environment.getProperty(VARIABLE);
        if (configured == null || configured.isBlank()) {
            log.warn("{} is not set: the user 'admin' was created with the default password documented in README.md. "
                    + "Set {} before anyone else can reach this deployment.", VARIABLE, VARIABLE);
        }
    }
}
