package com.statefulcvm.web;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The runnable orchestrator: Camunda engine, webapps and REST, our API, and (embedded mode) the simulator. */
@SpringBootApplication(scanBasePackages = {"com.statefulcvm.web", "com.statefulcvm.delegates", "com.statefulcvm.registry"})
@EnableScheduling
public class OrchestratorApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrchestratorApplication.class, args);
    }
}
