package com.statefulcvm.simulator.web;

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.VmUuidsRequest;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.version.ApiViews;

/** Apps: the list, one app and its replica set, its revisions; growing it and rolling CVMs to a revision. */
@RestController
@RequestMapping(ApiPaths.API + "/apps")
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class AppController {

    private final SimulatedCloud cloud;

    public AppController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    /** Apps newest first; the filters keep apps with at least one matching CVM. */
    @GetMapping
    Object apps(@RequestParam(defaultValue = "1") int page,
            @RequestParam(name = "page_size", defaultValue = "20") int pageSize,
            @RequestParam(required = false) String search,
            @RequestParam(required = false) List<String> status,
            @RequestParam(required = false) Boolean listed,
            @RequestParam(name = "base_image", required = false) String baseImage,
            @RequestParam(name = "instance_type", required = false) String instanceType,
            @RequestParam(name = "kms_slug", required = false) String kmsSlug,
            @RequestParam(name = "kms_type", required = false) String kmsType,
            @RequestParam(required = false) String node,
            @RequestParam(required = false) String region,
            ApiViews views) {
        boolean filtered = search != null || (status != null && !status.isEmpty()) || listed != null
                || baseImage != null || instanceType != null || kmsSlug != null || kmsType != null || node != null
                || region != null;
        return views.appPage(cloud.apps(page, pageSize, filtered ? CvmFilter.of(search, status, listed, baseImage,
                instanceType, kmsSlug, kmsType, node, null, region) : null));
    }

    @GetMapping("/{appId}")
    Object app(@PathVariable String appId, ApiViews views) {
        return views.app(cloud.app(appId));
    }

    @GetMapping("/{appId}/cvms")
    Object cvms(@PathVariable String appId, ApiViews views) {
        return views.appCvms(cloud.appCvms(appId));
    }

    @GetMapping("/{appId}/revisions")
    Object revisions(@PathVariable String appId, @RequestParam(defaultValue = "1") int page,
            @RequestParam(name = "page_size", defaultValue = "20") int pageSize, ApiViews views) {
        return views.revisions(cloud.revisions(appId, page, pageSize));
    }

    @GetMapping("/{appId}/revisions/{revisionId}")
    Object revision(@PathVariable String appId, @PathVariable String revisionId,
            @RequestParam(name = "raw_compose_file", defaultValue = "false") boolean rawComposeFile, ApiViews views) {
        return views.revision(cloud.revision(appId, revisionId), rawComposeFile);
    }

    @PostMapping("/{appId}/instances")
    Object addInstance(@PathVariable String appId, @RequestBody(required = false) InstanceRequest request,
            ApiViews views) {
        return views.instanceCreated(cloud.addInstance(appId, request));
    }

    @PostMapping("/{appId}/revisions/{revisionId}/redeploy")
    ResponseEntity<Object> redeploy(@PathVariable String appId, @PathVariable String revisionId,
            @RequestBody(required = false) VmUuidsRequest request, ApiViews views) {
        return ResponseEntity.accepted().body(views.redeploy(cloud.redeploy(appId, revisionId, request)));
    }
}
