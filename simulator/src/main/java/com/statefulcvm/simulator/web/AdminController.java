package com.statefulcvm.simulator.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.cloud.ApiException;
import com.statefulcvm.simulator.cloud.CvmEvent;
import com.statefulcvm.simulator.cloud.Fault;
import com.statefulcvm.simulator.cloud.FaultInjector;
import com.statefulcvm.simulator.cloud.SimulatedCloud;

/** Test and demo controls: the event journal, crashes, workload health, faults, timings, reset. No API key. */
@RestController
@RequestMapping(ApiPaths.ADMIN)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class AdminController {

    private final SimulatedCloud cloud;
    private final FaultInjector faults;

    public AdminController(SimulatedCloud cloud, FaultInjector faults) {
        this.cloud = cloud;
        this.faults = faults;
    }

    @GetMapping("/events")
    List<CvmEvent> events(@RequestParam(defaultValue = "0") long sinceSeq) {
        return cloud.events(sinceSeq);
    }

    @PostMapping("/cvms/{name}/crash")
    Map<String, Object> crash(@PathVariable String name) {
        CvmInfo cvm = cloud.crash(name);
        return cvmSummary(cvm);
    }

    @PostMapping("/cvms/{name}/health")
    Map<String, Object> health(@PathVariable String name,
            @RequestBody(required = false) AdminRequests.Health request) {
        if (request == null || request.healthy() == null) {
            throw ApiException.badRequest("healthy (true or false) is required");
        }
        CvmInfo cvm = cloud.setHealthy(name, request.healthy());
        Map<String, Object> answer = cvmSummary(cvm);
        answer.put("healthy", request.healthy());
        return answer;
    }

    @PostMapping("/faults")
    Fault addFault(@RequestBody(required = false) AdminRequests.NewFault request) {
        if (request == null) {
            throw ApiException.badRequest("a fault {method, pathPattern, status, times} is required");
        }
        return faults.add(request.method(), request.pathPattern(), request.status(), request.times(),
                request.retryAfterSeconds(), request.errorCode());
    }

    @GetMapping("/faults")
    List<Fault> faults() {
        return faults.pending();
    }

    @DeleteMapping("/faults")
    Map<String, Object> clearFaults() {
        return Map.of("cleared", faults.clear());
    }

    @GetMapping("/timings")
    Map<String, Long> timings() {
        return cloud.timings().asMap();
    }

    @PutMapping("/timings")
    Map<String, Long> updateTimings(@RequestBody(required = false) AdminRequests.Timings request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON object with timing fields is required");
        }
        SimulatorProperties.Timings timings = cloud.timings();
        Long[] values = {request.createMs(), request.startMs(), request.stopMs(), request.shutdownMs(),
            request.restartMs(), request.updateMs(), request.deleteMs()};
        for (Long value : values) {
            if (value != null && value < 0) {
                throw ApiException.badRequest("timings must be >= 0 ms");
            }
        }
        set(request.createMs(), timings::setCreateMs);
        set(request.startMs(), timings::setStartMs);
        set(request.stopMs(), timings::setStopMs);
        set(request.shutdownMs(), timings::setShutdownMs);
        set(request.restartMs(), timings::setRestartMs);
        set(request.updateMs(), timings::setUpdateMs);
        set(request.deleteMs(), timings::setDeleteMs);
        return timings.asMap();
    }

    @PostMapping("/reset")
    ResponseEntity<Void> reset() {
        faults.clear();
        cloud.reset();
        return ResponseEntity.noContent().build();
    }

    private static void set(Long value, LongConsumer setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    private static Map<String, Object> cvmSummary(CvmInfo cvm) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("cvm", cvm.name());
        answer.put("vmUuid", cvm.vmUuid());
        answer.put("status", cvm.status());
        return answer;
    }
}
