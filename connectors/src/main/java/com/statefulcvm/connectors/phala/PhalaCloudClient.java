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
import java.util.List;
import java.util.Map;

/**
 * The Phala Cloud API as the orchestrator uses it. Every method throws {@link PhalaApiException} and nothing else
 * for API and transport failures; transient ones have already been retried when it is thrown.
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

    UpdateResult updateDockerCompose(String cvmId, String dockerComposeYaml);

    /** Replaces the whole encrypted environment. */
    UpdateResult updateEnvs(String cvmId, EnvUpdate update);

    /** A new named slot under an existing app. */
    CvmInfo createAppInstance(String appId, AppInstanceRequest request);

    /** First step of creating a CVM: prepares, creates nothing. */
    ProvisionResult provision(ProvisionRequest request);

    /** Second step of creating a CVM: the CVM then boots. */
    CommittedCvm commitProvision(CommitRequest request);

    Attestation getAttestation(String cvmId);

    CvmNetwork getNetwork(String cvmId);

    /** Revisions of an app, newest first. */
    RevisionPage listRevisions(String appId, int page, int pageSize);

    /** Rolls the given CVMs of the app to the revision, in place. */
    UpdateResult redeployRevision(String appId, String revisionId, List<String> vmUuids);
}
