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
import com.statefulcvm.simulator.api.EnvUpdateRequest;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.version.ApiViews;

/**
 * Lifecycle operations and updates of one CVM: each answers at once (in the caller's API version); the CVM then
 * moves on asynchronously.
 */
@RestController
@RequestMapping(ApiPaths.API + "/cvms/{cvmId}")
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class CvmOperationsController {

    private final SimulatedCloud cloud;

    public CvmOperationsController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @PostMapping("/start")
    Object start(@PathVariable String cvmId, ApiViews views) {
        return views.lifecycle(cloud.start(cvmId));
    }

    @PostMapping("/stop")
    Object stop(@PathVariable String cvmId, ApiViews views) {
        return views.lifecycle(cloud.stop(cvmId));
    }

    @PostMapping("/shutdown")
    Object shutdown(@PathVariable String cvmId, ApiViews views) {
        return views.lifecycle(cloud.shutdown(cvmId));
    }

    /** The body ({@code {"force": false}}) is optional and changes nothing here. */
    @PostMapping("/restart")
    Object restart(@PathVariable String cvmId, @RequestBody(required = false) Map<String, Object> ignored,
            ApiViews views) {
        return views.lifecycle(cloud.restart(cvmId));
    }

    @DeleteMapping
    Object delete(@PathVariable String cvmId, ApiViews views) {
        return views.lifecycle(cloud.delete(cvmId));
    }

    @PatchMapping(path = "/docker-compose", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Object> updateCompose(@PathVariable String cvmId,
            @RequestBody(required = false) ComposeUpdateRequest request, ApiViews views) {
        return ResponseEntity.accepted().body(views.composeUpdate(cloud.updateCompose(cvmId,
                request == null ? null : request.dockerComposeFile(),
                request == null ? null : request.preLaunchScript())));
    }

    /** Any other content type ({@code text/yaml} and the like): the body is the docker compose itself. */
    @PatchMapping("/docker-compose")
    ResponseEntity<Object> updateComposeYaml(@PathVariable String cvmId,
            @RequestBody(required = false) String dockerComposeFile, ApiViews views) {
        return ResponseEntity.accepted().body(views.composeUpdate(cloud.updateCompose(cvmId, dockerComposeFile,
                null)));
    }

    @PatchMapping("/envs")
    ResponseEntity<Object> updateEnvs(@PathVariable String cvmId,
            @RequestBody(required = false) EnvUpdateRequest request, ApiViews views) {
        return ResponseEntity.accepted().body(views.envUpdate(cloud.updateEnvs(cvmId, request)));
    }
}
