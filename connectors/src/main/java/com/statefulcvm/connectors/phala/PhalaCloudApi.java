package com.statefulcvm.connectors.phala;

import com.statefulcvm.connectors.phala.model.AppInfo;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.Attestation;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CommitRequest;
import com.statefulcvm.connectors.phala.model.CommittedCvm;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.CvmNetwork;
import com.statefulcvm.connectors.phala.model.CvmState;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import com.statefulcvm.connectors.phala.model.RevisionPage;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import feign.Param;
import feign.RequestLine;
import java.util.List;
import java.util.Map;

/** The Feign mapping of the endpoints; callers use {@link PhalaCloudClient}, which hides Feign. */
interface PhalaCloudApi {

    record VmUuids(List<String> vmUuids) {
    }

    record Restart(boolean force) {
    }

    record DockerCompose(String dockerComposeFile) {
    }

    @RequestLine("GET /apps/{appId}")
    AppInfo getApp(@Param("appId") String appId);

    @RequestLine("GET /apps/{appId}/cvms")
    List<CvmInfo> listAppCvms(@Param("appId") String appId);

    @RequestLine("GET /cvms/{cvmId}")
    CvmInfo getCvm(@Param("cvmId") String cvmId);

    @RequestLine("GET /cvms/{cvmId}/state")
    CvmState getCvmState(@Param("cvmId") String cvmId);

    @RequestLine("POST /status/batch")
    Map<String, BatchStatus> statusBatch(VmUuids body);

    @RequestLine("POST /cvms/{cvmId}/start")
    CvmInfo start(@Param("cvmId") String cvmId);

    @RequestLine("POST /cvms/{cvmId}/stop")
    CvmInfo stop(@Param("cvmId") String cvmId);

    @RequestLine("POST /cvms/{cvmId}/shutdown")
    CvmInfo shutdown(@Param("cvmId") String cvmId);

    @RequestLine("POST /cvms/{cvmId}/restart")
    CvmInfo restart(@Param("cvmId") String cvmId, Restart body);

    @RequestLine("DELETE /cvms/{cvmId}")
    CvmInfo delete(@Param("cvmId") String cvmId);

    @RequestLine("PATCH /cvms/{cvmId}/docker-compose")
    UpdateResult updateDockerCompose(@Param("cvmId") String cvmId, DockerCompose body);

    @RequestLine("PATCH /cvms/{cvmId}/envs")
    UpdateResult updateEnvs(@Param("cvmId") String cvmId, EnvUpdate body);

    @RequestLine("POST /apps/{appId}/instances")
    CvmInfo createAppInstance(@Param("appId") String appId, AppInstanceRequest body);

    @RequestLine("POST /cvms/provision")
    ProvisionResult provision(ProvisionRequest body);

    @RequestLine("POST /cvms")
    CommittedCvm commitProvision(CommitRequest body);

    @RequestLine("GET /cvms/{cvmId}/attestation")
    Attestation getAttestation(@Param("cvmId") String cvmId);

    @RequestLine("GET /cvms/{cvmId}/network")
    CvmNetwork getNetwork(@Param("cvmId") String cvmId);

    @RequestLine("GET /apps/{appId}/revisions?page={page}&page_size={pageSize}")
    RevisionPage listRevisions(@Param("appId") String appId, @Param("page") int page, @Param("pageSize") int pageSize);

    @RequestLine("POST /apps/{appId}/revisions/{revisionId}/redeploy")
    UpdateResult redeployRevision(@Param("appId") String appId, @Param("revisionId") String revisionId, VmUuids body);
}
