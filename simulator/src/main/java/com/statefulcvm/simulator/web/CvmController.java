package com.statefulcvm.simulator.web;

import java.util.List;
import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.api.BatchStatus;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.CvmStats;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;
import com.statefulcvm.simulator.api.VmUuidsRequest;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.version.ApiViews;

/**
 * Creating CVMs (provision + commit) and reading them. {@code {cvmId}}: hashed or integer id, vm_uuid, name,
 * instance_id or {@code app_<app_id>}. Each answer is in the caller's API version ({@link ApiViews}).
 */
@RestController
@RequestMapping(ApiPaths.API)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class CvmController {

    private final SimulatedCloud cloud;

    public CvmController(SimulatedCloud cloud) {
        this.cloud = cloud;
    }

    @PostMapping("/cvms/provision")
    ProvisionResult provision(@RequestBody(required = false) ProvisionRequest request) {
        return cloud.provision(request);
    }

    @PostMapping("/cvms")
    Object commit(@RequestBody(required = false) CommitRequest request, ApiViews views) {
        return views.created(cloud.commit(request));
    }

    /** Every CVM of the workspace, newest first. */
    @GetMapping("/cvms/paginated")
    Object cvms(@RequestParam(defaultValue = "1") int page,
            @RequestParam(name = "page_size", defaultValue = "20") int pageSize,
            @RequestParam(name = "node_id", required = false) Integer nodeId,
            @RequestParam(name = "teepod_id", required = false) Integer teepodId,
            @RequestParam(required = false) String search,
            @RequestParam(required = false) List<String> status,
            ApiViews views) {
        return views.cvmPage(cloud.cvms(page, pageSize, CvmFilter.of(search, status, null, null, null, null, null,
                null, nodeId != null ? nodeId : teepodId, null)));
    }

    @GetMapping("/cvms/{cvmId}")
    Object cvm(@PathVariable String cvmId, ApiViews views) {
        return views.cvm(cloud.cvm(cvmId));
    }

    @GetMapping("/cvms/{cvmId}/state")
    Object state(@PathVariable String cvmId, ApiViews views) {
        return views.state(cloud.cvm(cvmId));
    }

    @GetMapping("/cvms/{cvmId}/network")
    Object network(@PathVariable String cvmId, ApiViews views) {
        return views.network(cloud.cvm(cvmId));
    }

    @GetMapping("/cvms/{cvmId}/attestation")
    Object attestation(@PathVariable String cvmId, ApiViews views) {
        return views.attestation(cloud.attestation(cvmId));
    }

    /** The same in every version. */
    @GetMapping("/cvms/{cvmId}/stats")
    CvmStats stats(@PathVariable String cvmId) {
        return cloud.stats(cvmId);
    }

    /** The same in every version. */
    @PostMapping("/status/batch")
    Map<String, BatchStatus> statusBatch(@RequestBody(required = false) VmUuidsRequest request) {
        return cloud.statusBatch(request);
    }
}
