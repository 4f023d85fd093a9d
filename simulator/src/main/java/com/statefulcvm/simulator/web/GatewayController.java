package com.statefulcvm.simulator.web;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.cloud.SimulatedCloud;

/**
 * The simulated dstack-gateway: {@code ANY /simulator/gateway/{instanceId}-{port}/**} (or {@code {app_id}-{port}})
 * reaches the CVM's workload: 200 {@code {"status":"ok"}} when it runs settled and healthy, 503
 * {@code {"status":"unhealthy"}} when marked unhealthy, 502 {@code no upstream} otherwise.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class GatewayController {

    private final SimulatedCloud cloud;

    public GatewayController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @RequestMapping({"/{target}", "/{target}/**"})
    ResponseEntity<String> forward(@PathVariable String target) {
        return switch (cloud.gateway(target)) {
            case HEALTHY -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body("{\"status\":\"ok\"}");
            case UNHEALTHY -> ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_JSON)
                    .body("{\"status\":\"unhealthy\"}");
            case NONE -> ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.TEXT_PLAIN)
                    .body("no upstream");
        };
    }
}
