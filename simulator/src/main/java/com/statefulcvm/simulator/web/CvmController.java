package com.statefulcvm.simulator.web;

import java.util.Map;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.BatchStatus;
import com.statefulcvm.simulator.api.CommitRequest;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.CvmState;
import com.statefulcvm.simulator.api.NetworkInfo;
import com.statefulcvm.simulator.api.ProvisionRequest;
import com.statefulcvm.simulator.api.ProvisionResult;
import com.statefulcvm.simulator.api.VmUuidsRequest;
import com.statefulcvm.simulator.cloud.SimulatedCloud;

/** Creating CVMs (provision + commit) and reading them. {@code {cvmId}}: hashed id, vm_uuid or name. */
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
    CvmInfo commit(@RequestBody(required = false) CommitRequest request) {
        return cloud.commit(request);
    }

    @GetMapping("/cvms/{cvmId}")
    CvmInfo cvm(@PathVariable String cvmId) {
        return cloud.cvmInfo(cvmId);
    }

    @GetMapping("/cvms/{cvmId}/state")
    CvmState state(@PathVariable String cvmId) {
        return cloud.state(cvmId);
    }

    @GetMapping("/cvms/{cvmId}/network")
    NetworkInfo network(@PathVariable String cvmId) {
        return cloud.network(cvmId);
    }

    @GetMapping("/cvms/{cvmId}/attestation")
    AttestationInfo attestation(@PathVariable String cvmId) {
        return cloud.attestation(cvmId);
    }

    @PostMapping("/status/batch")
    Map<String, BatchStatus> statusBatch(@RequestBody(required = false) VmUuidsRequest request) {
        return cloud.statusBatch(request);
    }
}
