package com.statefulcvm.simulator;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * The simulator on its own: {@code java -jar simulator/target/simulator-0.1.0-SNAPSHOT-exec.jar} serves it on
 * port 8081. The defaults below are the lowest-precedence properties: {@code --server.port=...},
 * {@code --simulator.api-key=...} or environment variables override them.
 */
@SpringBootApplication
public class SimulatorApplication {

    public static void main(String[] args) {
        new SpringApplicationBuilder(SimulatorApplication.class)
                .properties(
                        "simulator.enabled=true",
                        "server.port=8081",
                        "spring.application.name=phala-cloud-simulator")
                .run(args);
    }
}
