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

import com.statefulcvm.simulator.api.AppInfo;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.InstanceRequest;
import com.statefulcvm.simulator.api.RevisionPage;
import com.statefulcvm.simulator.api.UpdateResult;
import com.statefulcvm.simulator.api.VmUuidsRequest;
import com.statefulcvm.simulator.cloud.SimulatedCloud;

/** An app, its replica set, its revisions; growing it and rolling CVMs to a revision. */
@RestController
@RequestMapping(ApiPaths.API + "/apps/{appId}")
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class AppController {

    private final SimulatedCloud cloud;

    public AppController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @GetMapping
    AppInfo app(@PathVariable String appId) {
        return cloud.appInfo(appId);
    }

    @GetMapping("/cvms")
    List<CvmInfo> cvms(@PathVariable String appId) {
        return cloud.appCvms(appId);
    }

    @GetMapping("/revisions")
    RevisionPage revisions(@PathVariable String appId, @RequestParam(defaultValue = "1") int page,
            @RequestParam(name = "page_size", defaultValue = "20") int pageSize) {
        return cloud.revisions(appId, page, pageSize);
    }

    @PostMapping("/instances")
    CvmInfo addInstance(@PathVariable String appId, @RequestBody(required = false) InstanceRequest request) {
        return cloud.addInstance(appId, request);
    }

    @PostMapping("/revisions/{revisionId}/redeploy")
    ResponseEntity<UpdateResult> redeploy(@PathVariable String appId, @PathVariable String revisionId,
            @RequestBody(required = false) VmUuidsRequest request) {
        return ResponseEntity.accepted().body(cloud.redeploy(appId, revisionId, request));
    }
}
