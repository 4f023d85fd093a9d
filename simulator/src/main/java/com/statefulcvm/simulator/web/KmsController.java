package com.statefulcvm.simulator.web;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.cloud.SimulatedCloud;

/**
 * The KMS's signed env key ({@code GET /kms/{kms}/pubkey/{app_id}}, SDK {@code getAppEnvEncryptPubKey}: exactly
 * {@code {public_key, signature}}) and the workspace's quotas ({@code GET /workspaces/{slug}/quotas}, SDK
 * {@code getWorkspaceQuotas}); the same in every API version.
 */
@RestController
@RequestMapping(ApiPaths.API)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class KmsController {

    private final SimulatedCloud cloud;

    public KmsController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @GetMapping("/kms/{kms}/pubkey/{appId}")
    Map<String, String> envEncryptPubkey(@PathVariable String kms, @PathVariable String appId) {
        return cloud.envEncryptPubkey(kms, appId);
    }

    @GetMapping("/workspaces/{slug}/quotas")
    Map<String, Object> quotas(@PathVariable String slug) {
        return cloud.quotas(slug);
    }
}
