package com.statefulcvm.simulator.version;

import java.util.List;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.AppInfo;
import com.statefulcvm.simulator.api.AppPage;
import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.CurrentUser;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.CvmPage;
import com.statefulcvm.simulator.api.CvmState;
import com.statefulcvm.simulator.api.NetworkInfo;
import com.statefulcvm.simulator.api.RevisionDetail;
import com.statefulcvm.simulator.api.RevisionPage;
import com.statefulcvm.simulator.api.UpdateResult;
import com.statefulcvm.simulator.cloud.AppSnapshot;
import com.statefulcvm.simulator.cloud.ComposeHasher;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Page;
import com.statefulcvm.simulator.cloud.RevisionSnapshot;
import com.statefulcvm.simulator.cloud.SimulatedAccount;
import com.statefulcvm.simulator.cloud.UpdateOutcome;

import static com.statefulcvm.simulator.version.Wire.text;

/**
 * Version 2026-05-22, the newest and what our Java client speaks: CVMInfo with the hashed {@code cvm_…} id,
 * {@code in_progress} and {@code progress}; lifecycle calls answer CVMInfo; updates answer
 * {@code {status, correlation_id, requires_on_chain_hash}}. See {@code /work/shared/phala-cloud-api.md}.
 */
final class ViewsV20260522 implements ApiViews {

    @Override
    public ApiVersion version() {
        return ApiVersion.V2026_05_22;
    }

    @Override
    public CvmInfo created(CvmSnapshot cvm) {
        return info(cvm, false);
    }

    @Override
    public CvmInfo instanceCreated(CvmSnapshot cvm) {
        return info(cvm, false);
    }

    @Override
    public CvmInfo lifecycle(CvmSnapshot cvm) {
        return info(cvm, false);
    }

    @Override
    public CvmInfo cvm(CvmSnapshot cvm) {
        return info(cvm, true);
    }

    @Override
    public CvmPage<CvmInfo> cvmPage(Page<CvmSnapshot> page) {
        return new CvmPage<>(page.map(cvm -> info(cvm, false)), page.total(), page.page(), page.pageSize(),
                page.pages());
    }

    @Override
    public CvmState state(CvmSnapshot cvm) {
        return new CvmState(cvm.id(), cvm.instanceId(), cvm.name(), cvm.status(), cvm.uptime(),
                text(cvm.exitedAt()), cvm.bootProgress(), null, cvm.shutdownProgress());
    }

    @Override
    public NetworkInfo network(CvmSnapshot cvm) {
        return Wire.network(cvm, Wire.urls(cvm));
    }

    @Override
    public AttestationInfo attestation(AttestationInfo attestation) {
        return attestation;
    }

    @Override
    public AppInfo app(AppSnapshot app) {
        List<CvmInfo> cvms = app.cvms().stream().map(cvm -> info(cvm, false)).toList();
        return new AppInfo(app.id(), app.name(), app.appId(), app.kmsType(), cvms.size(),
                cvms.isEmpty() ? null : cvms.get(0), cvms, text(app.createdAt()));
    }

    @Override
    public AppPage<AppInfo> appPage(Page<AppSnapshot> page) {
        return new AppPage<>(page.map(this::app), page.page(), page.pageSize(), page.total(), page.pages());
    }

    @Override
    public List<CvmInfo> appCvms(List<CvmSnapshot> cvms) {
        return cvms.stream().map(cvm -> info(cvm, false)).toList();
    }

    @Override
    public RevisionPage revisions(Page<RevisionSnapshot> page) {
        return new RevisionPage(page.map(ViewsV20260522::revision), page.total(), page.page(), page.pageSize(),
                page.pages());
    }

    @Override
    public RevisionDetail revision(RevisionSnapshot r, boolean rawComposeFile) {
        return new RevisionDetail(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(),
                rawComposeFile ? ComposeHasher.canonicalJson(r.compose()) : new TreeMap<>(r.compose()),
                r.encryptedEnv() == null ? "" : r.encryptedEnv(), "{}", text(r.createdAt()), r.operationType(), r.triggeredBy());
    }

    @Override
    public UpdateResult composeUpdate(UpdateOutcome outcome) {
        return new UpdateResult(outcome.status(), outcome.correlationId(), false);
    }

    @Override
    public UpdateResult envUpdate(UpdateOutcome outcome) {
        return composeUpdate(outcome);
    }

    @Override
    public UpdateResult redeploy(UpdateOutcome outcome) {
        return composeUpdate(outcome);
    }

    @Override
    public CurrentUser currentUser(SimulatedAccount account) {
        return currentUserV20260121(account);
    }

    /** SDK {@code CurrentUserV20260121Schema}, also what 2026-05-22 answers. */
    static CurrentUser currentUserV20260121(SimulatedAccount account) {
        return new CurrentUser(
                new CurrentUser.User(account.username(), account.email(), "user", "", true, false, false, true),
                new CurrentUser.Workspace(account.workspaceId(), account.workspaceName(), account.workspaceSlug(),
                        account.tier(), account.role(), null),
                new CurrentUser.Credits(account.balance(), "0.00", false, null));
    }

    private static RevisionPage.Revision revision(RevisionSnapshot r) {
        return new RevisionPage.Revision(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(), text(r.createdAt()),
                r.operationType(), r.triggeredBy());
    }

    private static CvmInfo info(CvmSnapshot cvm, boolean detail) {
        CvmSnapshot.Op op = cvm.operation();
        CvmInfo.Progress progress = op == null
                ? new CvmInfo.Progress(null, null, null)
                : new CvmInfo.Progress(op.target(), text(op.startedAt()), op.correlationId());
        List<CvmInfo.Url> urls = Wire.urls(cvm);
        return new CvmInfo(
                cvm.id(), cvm.name(), cvm.appId(), cvm.vmUuid(), cvm.instanceId(), cvm.status(),
                cvm.inProgress(), progress, cvm.composeHash(),
                new CvmInfo.Resource(cvm.instanceType(), cvm.vcpu(), cvm.memoryGb(), cvm.diskSize()),
                new CvmInfo.NodeInfo(cvm.nodeId(), cvm.nodeName(), cvm.region(), "active"),
                new CvmInfo.Os(CvmSnapshot.OS_NAME, CvmSnapshot.OS_VERSION, false, CvmSnapshot.OS_IMAGE_HASH),
                CvmSnapshot.KMS_TYPE,
                new CvmInfo.Gateway(cvm.gatewayBaseDomain(), null),
                cvm.storageFs(), cvm.diskSize(), urls, urls,
                text(cvm.createdAt()), text(cvm.updatedAt()),
                detail ? Wire.compose(cvm) : null);
    }
}
