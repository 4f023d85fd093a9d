package com.statefulcvm.simulator.web;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.evidence.SimulatedGuestAgent;

/**
 * The simulated dstack-gateway: {@code ANY /simulator/gateway/{instanceId}-{port}/**} (or {@code {app_id}-{port}})
 * reaches the CVM's workload: 200 {@code {"status":"ok"}} when it runs settled and healthy, 503
 * {@code {"status":"unhealthy"}} when marked unhealthy, 502 {@code no upstream} otherwise. Port 8090's
 * {@code /GetQuote} is the CVM's guest agent ({@link SimulatedGuestAgent}). {@code GET /leader} on any port is the
 * role probe, as Patroni answers it: 200 on the app's leader, 503 on the others, 502 when the CVM is down. The paths
 * of Patroni's, Consul's and etcd's own APIs are answered by {@link SimulatedPatroniController},
 * {@link SimulatedConsulController} and {@link SimulatedEtcdController}, from the same membership.
 * A mapped port of a CVM backed by a real local process never gets here: {@link GatewayBackendFilter} proxies it.
 */
@RestController
@RequestMapping(ApiPaths.GATEWAY)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class GatewayController {

    private final SimulatedCloud cloud;
    private final SimulatedGuestAgent guestAgent;

    public GatewayController(SimulatedCloud cloud, SimulatedGuestAgent guestAgent) {
        this.cloud = cloud;
        this.guestAgent = guestAgent;
    }

    /**
     * The guest agent's {@code GetQuote?report_data=<hex>} on port {@value SimulatedGuestAgent#PORT}: the dstack
     * GetQuote JSON while the CVM runs, 502 otherwise. Any other port answers as every other path does.
     */
    @RequestMapping("/{target}/GetQuote")
    ResponseEntity<String> getQuote(@PathVariable String target,
            @RequestParam(name = "report_data", required = false) String reportData) {
        if (!SimulatedGuestAgent.isGuestAgent(target)) {
            return forward(target);
        }
        return guestAgent.getQuote(target, reportData)
                .map(json -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(json))
                .orElseGet(() -> ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.TEXT_PLAIN)
                        .body("no upstream"));
    }

    /**
     * Patroni's {@code GET /leader} (HEAD too): 200 {@code {"role":"leader"}} on the CVM that leads its app, 503
     * {@code {"role":"replica"}} on the others while they run (healthy or not), 502 {@code no upstream} as for health
     * otherwise. Other methods on this path answer as every other path does.
     */
    @GetMapping("/{target}/leader")
    ResponseEntity<String> leader(@PathVariable String target) {
        return switch (cloud.gatewayRole(target)) {
            case LEADER -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body("{\"role\":\"leader\"}");
            case REPLICA -> ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_JSON)
                    .body("{\"role\":\"replica\"}");
            case NONE -> ResponseEntity.status(HttpStatus.BAD_GATEWAY).contentType(MediaType.TEXT_PLAIN)
                    .body("no upstream");
        };
    }

    @RequestMapping({"/{target}", "/{target}/**"})
    ResponseEntity<String> forward(@PathVariable String target) {
        return WorkloadAnswers.health(cloud.gateway(target));
    }
}
