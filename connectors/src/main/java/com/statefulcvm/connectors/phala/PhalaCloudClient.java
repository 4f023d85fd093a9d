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
import java.util.List;
import java.util.Map;

/**
 * The Phala Cloud API as the orchestrator uses it, each request as the official SDK {@code @phala/cloud} 0.2.9 makes
 * it (docs/phala-api.md). Every method throws {@link PhalaApiException} and nothing else for API and transport
 * failures; transient ones have already been retried when it is thrown, and a call that changes something is never
 * repeated after a failure of unknown outcome ({@link PhalaApiException#isOutcomeUnknown()}): read back first.
 *
 * <p>App ids may be given as {@code app_<hex>} or bare hex. A {@code cvmId} may be the hashed id, the vm_uuid or
 * the CVM name. Lifecycle and update calls are asynchronous: poll until {@link CvmInfo#isSettled()}.
 */
public interface PhalaCloudClient {

    AppInfo getApp(String appId);

    /** Every CVM of the app: the replica set. */
    List<CvmInfo> listAppCvms(String appId);

    /** Throws a {@link PhalaApiException} with {@link PhalaApiException#isNotFound()} once the CVM is deleted. */
    CvmInfo getCvm(String cvmId);

    CvmState getCvmState(String cvmId);

    /** Status of several CVMs in one call, keyed by vm_uuid. */
    Map<String, BatchStatus> statusBatch(List<String> vmUuids);

    CvmInfo start(String cvmId);

    /** Hard stop. */
    CvmInfo stop(String cvmId);

    /** Graceful stop. */
    CvmInfo shutdown(String cvmId);

    CvmInfo restart(String cvmId, boolean force);

    /** Deletes the CVM and its disk. Returns null when the API answers without a body. */
    CvmInfo delete(String cvmId);

    /**
     * Sends the compose as YAML. An on-chain KMS app answers HTTP 465 ({@link PhalaApiException#onChainHashRequired()}):
     * register the hash on chain, then {@link #commitUpdate} with the 465's token, or send this again with the hashes.
     */
    UpdateResult updateDockerCompose(String cvmId, String dockerComposeYaml);

    /** Phase 2 of an on-chain KMS app's compose update: the same YAML with {@code X-Compose-Hash}, {@code X-Transaction-Hash}. */
    UpdateResult updateDockerCompose(String cvmId, String dockerComposeYaml, String composeHash, String transactionHash);

    /** Phase 2 of an update that answered 465 with a commit token: {@code POST /cvms/{id}/commit-update}. */
    CommitUpdateResult commitUpdate(String cvmId, String token, String composeHash, String transactionHash);

    /** Replaces the whole encrypted environment. */
    UpdateResult updateEnvs(String cvmId, EnvUpdate update);

    /**
     * A new CVM under an existing app, named by the platform (the SDK's request has no name): answers the VM record,
     * whose {@code vm_uuid} finds it in {@link #listAppCvms}; {@link #renameCvm} gives it its slot's name.
     */
    CvmInfo createAppInstance(String appId, AppInstanceRequest request);

    /** {@code PATCH /cvms/{id}/name}; {@code cvmId} must be the hashed id. 400 when the name is taken in the workspace. */
    void renameCvm(String cvmId, String name);

    /** First step of creating a CVM: prepares, creates nothing. */
    ProvisionResult provision(ProvisionRequest request);

    /** Second step of creating a CVM: the CVM then boots. */
    CommittedCvm commitProvision(CommitRequest request);

    Attestation getAttestation(String cvmId);

    CvmNetwork getNetwork(String cvmId);

    /** Revisions of an app, newest first. */
    RevisionPage listRevisions(String appId, int page, int pageSize);

    /** One revision of an app with the encrypted env it was deployed with. */
    RevisionDetail getRevision(String appId, String revisionId);

    /** The app's env encryption key and the KMS's signature over it; check it ({@link EnvKeyVerifier}) before use. */
    EnvEncryptPubkey getAppEnvEncryptPubkey(String kms, String appId);

    /** Who the API key belongs to, and its workspace. */
    CurrentUser getCurrentUser();

    /** The workspace's quotas: limits and what remains of them. */
    WorkspaceQuotas getWorkspaceQuotas(String workspaceSlug);
}
