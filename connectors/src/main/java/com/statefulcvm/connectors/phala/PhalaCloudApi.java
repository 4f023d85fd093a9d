package com.statefulcvm.connectors.phala;

import com.statefulcvm.connectors.phala.model.AppInfo;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.Attestation;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CommitRequest;
import com.statefulcvm.connectors.phala.model.CommitUpdateResult;
import com.statefulcvm.connectors.phala.model.CommittedCvm;
import com.statefulcvm.connectors.phala.model.CurrentUser;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.CvmNetwork;
import com.statefulcvm.connectors.phala.model.CvmState;
import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import com.statefulcvm.connectors.phala.model.RevisionDetail;
import com.statefulcvm.connectors.phala.model.RevisionPage;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.connectors.phala.model.WorkspaceQuotas;
import feign.HeaderMap;
import feign.Headers;
import feign.Param;
import feign.RequestLine;
import java.util.List;
import java.util.Map;

/**
 * The Feign mapping of the endpoints; callers use {@link PhalaCloudClient}, which hides Feign. Each method names the
 * action of the official SDK {@code @phala/cloud} 0.2.9 whose request it reproduces (method, path, content type,
 * body), or the Terraform provider's source where the SDK has none; {@code docs/phala-api.md} lists them.
 */
interface PhalaCloudApi {

    /** SDK {@code getCvmStatusBatch}: {@code {vm_uuids}}. */
    record VmUuids(List<String> vmUuids) {
    }

    /** SDK {@code restartCvm}: {@code {force}}, false when not given. */
    record Restart(boolean force) {
    }

    /** Provider {@code docs/design-notes/cvm-rename-endpoint.md}: {@code {name}}. */
    record NewName(String name) {
    }

    /** SDK {@code commitCvmUpdate}: {@code {token, compose_hash, transaction_hash}}. */
    record CommitUpdate(String token, String composeHash, String transactionHash) {
    }

    /** SDK {@code getAppInfo}. */
    @RequestLine("GET /apps/{appId}")
    AppInfo getApp(@Param("appId") String appId);

    /** SDK {@code getAppCvms}. */
    @RequestLine("GET /apps/{appId}/cvms")
    List<CvmInfo> listAppCvms(@Param("appId") String appId);

    /** SDK {@code getCvmInfo}. */
    @RequestLine("GET /cvms/{cvmId}")
    CvmInfo getCvm(@Param("cvmId") String cvmId);

    /** SDK {@code getCvmState}. */
    @RequestLine("GET /cvms/{cvmId}/state")
    CvmState getCvmState(@Param("cvmId") String cvmId);

    /** SDK {@code getCvmStatusBatch}. */
    @RequestLine("POST /status/batch")
    Map<String, BatchStatus> statusBatch(VmUuids body);

    /** SDK {@code startCvm}: no body. */
    @RequestLine("POST /cvms/{cvmId}/start")
    CvmInfo start(@Param("cvmId") String cvmId);

    /** SDK {@code stopCvm}: no body. */
    @RequestLine("POST /cvms/{cvmId}/stop")
    CvmInfo stop(@Param("cvmId") String cvmId);

    /** SDK {@code shutdownCvm}: no body. */
    @RequestLine("POST /cvms/{cvmId}/shutdown")
    CvmInfo shutdown(@Param("cvmId") String cvmId);

    /** SDK {@code restartCvm}. */
    @RequestLine("POST /cvms/{cvmId}/restart")
    CvmInfo restart(@Param("cvmId") String cvmId, Restart body);

    /** SDK {@code deleteCvm}. */
    @RequestLine("DELETE /cvms/{cvmId}")
    CvmInfo delete(@Param("cvmId") String cvmId);

    /**
     * SDK {@code updateDockerCompose}: the raw YAML as the body, {@code Content-Type: text/yaml}, and in phase 2 of an
     * on-chain KMS app {@code X-Compose-Hash} and {@code X-Transaction-Hash} ({@code headers} holds only those given).
     */
    @RequestLine("PATCH /cvms/{cvmId}/docker-compose")
    @Headers("Content-Type: text/yaml")
    UpdateResult updateDockerCompose(@Param("cvmId") String cvmId, @HeaderMap Map<String, Object> headers,
                                     String dockerComposeYaml);

    /** SDK {@code updateCvmEnvs}: {@code {encrypted_env, env_keys, compose_hash?, transaction_hash?}}. */
    @RequestLine("PATCH /cvms/{cvmId}/envs")
    UpdateResult updateEnvs(@Param("cvmId") String cvmId, EnvUpdate body);

    /** SDK {@code commitCvmUpdate}: phase 2 of an update that answered 465, with the commit token it gave. */
    @RequestLine("POST /cvms/{cvmId}/commit-update")
    CommitUpdateResult commitUpdate(@Param("cvmId") String cvmId, CommitUpdate body);

    /** SDK {@code createAppInstance}: {@code node_id} a number, no name (the SDK's strict schema has none). */
    @RequestLine("POST /apps/{appId}/instances")
    CvmInfo createAppInstance(@Param("appId") String appId, AppInstanceRequest body);

    /** Provider {@code docs/design-notes/cvm-rename-endpoint.md}: 204 without a body; the SDK has no such action. */
    @RequestLine("PATCH /cvms/{cvmId}/name")
    void rename(@Param("cvmId") String cvmId, NewName body);

    /** SDK {@code provisionCvm}: the node as {@code teepod_id}, a number. */
    @RequestLine("POST /cvms/provision")
    ProvisionResult provision(ProvisionRequest body);

    /** SDK {@code commitCvmProvision}. */
    @RequestLine("POST /cvms")
    CommittedCvm commitProvision(CommitRequest body);

    /** SDK {@code getCvmAttestation}. */
    @RequestLine("GET /cvms/{cvmId}/attestation")
    Attestation getAttestation(@Param("cvmId") String cvmId);

    /** SDK {@code getCvmNetwork}. */
    @RequestLine("GET /cvms/{cvmId}/network")
    CvmNetwork getNetwork(@Param("cvmId") String cvmId);

    /** SDK {@code getAppRevisions}: the query {@code page}, then {@code page_size}. */
    @RequestLine("GET /apps/{appId}/revisions?page={page}&page_size={pageSize}")
    RevisionPage listRevisions(@Param("appId") String appId, @Param("page") int page, @Param("pageSize") int pageSize);

    /** SDK {@code getAppRevisionDetail}, without {@code raw_compose_file}. */
    @RequestLine("GET /apps/{appId}/revisions/{revisionId}")
    RevisionDetail getRevision(@Param("appId") String appId, @Param("revisionId") String revisionId);

    /** SDK {@code getAppEnvEncryptPubKey}: {@code {public_key, signature}} signed by the KMS. */
    @RequestLine("GET /kms/{kms}/pubkey/{appId}")
    EnvEncryptPubkey getAppEnvEncryptPubkey(@Param("kms") String kms, @Param("appId") String appId);

    /** SDK {@code getCurrentUser}: who the key belongs to and its workspace (its slug names the quotas). */
    @RequestLine("GET /auth/me")
    CurrentUser getCurrentUser();

    /** SDK {@code getWorkspaceQuotas}. */
    @RequestLine("GET /workspaces/{slug}/quotas")
    WorkspaceQuotas getWorkspaceQuotas(@Param("slug") String slug);
}
