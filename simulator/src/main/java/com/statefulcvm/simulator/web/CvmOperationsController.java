package com.statefulcvm.simulator.web;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.api.ComposeUpdateRequest;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.EnvUpdateRequest;
import com.statefulcvm.simulator.api.UpdateResult;
import com.statefulcvm.simulator.cloud.SimulatedCloud;

/** Lifecycle operations and updates of one CVM: each answers at once; the CVM then moves on asynchronously. */
@RestController
@RequestMapping(ApiPaths.API + "/cvms/{cvmId}")
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class CvmOperationsController {

    private final SimulatedCloud cloud;

    public CvmOperationsController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @PostMapping("/start")
    CvmInfo start(@PathVariable String cvmId) {
        return cloud.start(cvmId);
    }

    @PostMapping("/stop")
    CvmInfo stop(@PathVariable String cvmId) {
        return cloud.stop(cvmId);
    }

    @PostMapping("/shutdown")
    CvmInfo shutdown(@PathVariable String cvmId) {
        return cloud.shutdown(cvmId);
    }

    /** The body ({@code {"force": false}}) is optional and changes nothing here. */
    @PostMapping("/restart")
    CvmInfo restart(@PathVariable String cvmId, @RequestBody(required = false) Map<String, Object> ignored) {
        return cloud.restart(cvmId);
    }

    @DeleteMapping
    CvmInfo delete(@PathVariable String cvmId) {
        return cloud.delete(cvmId);
    }

    @PatchMapping(path = "/docker-compose", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<UpdateResult> updateCompose(@PathVariable String cvmId,
            @RequestBody(required = false) ComposeUpdateRequest request) {
        return ResponseEntity.accepted().body(cloud.updateCompose(cvmId,
                request == null ? null : request.dockerComposeFile(),
                request == null ? null : request.preLaunchScript()));
    }

    /** Any other content type ({@code text/yaml} and the like): the body is the docker compose itself. */
    @PatchMapping("/docker-compose")
    ResponseEntity<UpdateResult> updateComposeYaml(@PathVariable String cvmId,
            @RequestBody(required = false) String dockerComposeFile) {
        return ResponseEntity.accepted().body(cloud.updateCompose(cvmId, dockerComposeFile, null));
    }

    @PatchMapping("/envs")
    ResponseEntity<UpdateResult> updateEnvs(@PathVariable String cvmId,
            @RequestBody(required = false) EnvUpdateRequest request) {
        return ResponseEntity.accepted().body(cloud.updateEnvs(cvmId, request));
    }
}
