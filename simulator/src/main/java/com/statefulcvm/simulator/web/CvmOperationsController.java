package com.statefulcvm.simulator.web;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.api.CommitUpdateRequest;
import com.statefulcvm.simulator.api.EnvUpdateRequest;
import com.statefulcvm.simulator.cloud.ApiException;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.cloud.UpdateOutcome;
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

    /**
     * The body is the docker compose itself, {@code Content-Type: text/yaml}, as the SDK's {@code updateDockerCompose}
     * sends it; anything else (a JSON object, form data) is refused with 415. Phase 2 of an on-chain KMS app adds the
     * {@code X-Compose-Hash} and {@code X-Transaction-Hash} headers.
     */
    @PatchMapping("/docker-compose")
    ResponseEntity<Object> updateCompose(@PathVariable String cvmId,
            @RequestHeader(name = HttpHeaders.CONTENT_TYPE, required = false) String contentType,
            @RequestHeader(name = "X-Compose-Hash", required = false) String composeHash,
            @RequestHeader(name = "X-Transaction-Hash", required = false) String transactionHash,
            @RequestBody(required = false) byte[] body, ApiViews views) {
        if (!isYaml(contentType)) {
            throw new ApiException(415, Map.of("detail", "Unsupported Media Type: the docker compose is sent as "
                    + "text/yaml, got " + (contentType == null ? "none" : contentType)));
        }
        String yaml = body == null ? null : new String(body, StandardCharsets.UTF_8);
        return ResponseEntity.accepted().body(views.composeUpdate(cloud.updateCompose(cvmId, yaml, composeHash,
                transactionHash)));
    }

    /** {@code {token, compose_hash, transaction_hash}} (SDK {@code commitCvmUpdate}): {@code {correlation_id, status}}. */
    @PostMapping("/commit-update")
    ResponseEntity<Map<String, Object>> commitUpdate(@PathVariable String cvmId,
            @RequestBody(required = false) CommitUpdateRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        UpdateOutcome outcome = cloud.commitUpdate(cvmId, request.token(), request.composeHash(),
                request.transactionHash());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("correlation_id", outcome.correlationId());
        answer.put("status", outcome.status());
        return ResponseEntity.accepted().body(answer);
    }

    /** Provider {@code docs/design-notes/cvm-rename-endpoint.md}: 204, 400 when the name is in use. */
    @PatchMapping("/name")
    ResponseEntity<Void> rename(@PathVariable String cvmId, @RequestBody(required = false) Map<String, Object> body) {
        Object name = body == null ? null : body.get("name");
        if (name != null && !(name instanceof String)) {
            throw ApiException.unprocessable(java.util.List.of("body", "name"), "Input should be a valid string",
                    "string_type");
        }
        cloud.rename(cvmId, (String) name);
        return ResponseEntity.noContent().build();
    }

    private static boolean isYaml(String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return "text".equals(type.getType()) && "yaml".equals(type.getSubtype());
        } catch (org.springframework.util.InvalidMimeTypeException e) {
            return false;
        }
    }

    @PatchMapping("/envs")
    ResponseEntity<Object> updateEnvs(@PathVariable String cvmId,
            @RequestBody(required = false) EnvUpdateRequest request, ApiViews views) {
        return ResponseEntity.accepted().body(views.envUpdate(cloud.updateEnvs(cvmId, request)));
    }
}
