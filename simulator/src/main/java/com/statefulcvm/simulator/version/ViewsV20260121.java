package com.statefulcvm.simulator.version;

import java.util.List;

import com.statefulcvm.simulator.api.AppInfoV20260121;
import com.statefulcvm.simulator.api.AppPage;
import com.statefulcvm.simulator.api.CurrentUser;
import com.statefulcvm.simulator.api.CvmInfo;
import com.statefulcvm.simulator.api.CvmInfoV20260121;
import com.statefulcvm.simulator.api.CvmPage;
import com.statefulcvm.simulator.api.Refs;
import com.statefulcvm.simulator.cloud.AppSnapshot;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Page;
import com.statefulcvm.simulator.cloud.SimulatedAccount;

import static com.statefulcvm.simulator.version.Wire.text;

/**
 * Version 2026-01-21, the SDK's and CLI's default (SDK {@code types/cvm_info_v20260121},
 * {@code types/app_info_v20260121}, {@code credentials/current_user_v20260121}): CVMInfo with {@code resource},
 * {@code node_info} (a node reference), {@code os}, {@code kms_info}, {@code progress}, {@code gateway}, the compose
 * flags, workspace and creator references; its {@code id} is the hashed CVM id (the schema's own comment: "hashed
 * CvmId"). The VM records of the lifecycle calls carry the integer id as a number.
 */
final class ViewsV20260121 extends SdkEraViews {

    @Override
    public ApiVersion version() {
        return ApiVersion.V2026_01_21;
    }

    @Override
    public CvmInfoV20260121 cvm(CvmSnapshot cvm) {
        return info(cvm, true);
    }

    @Override
    public CvmPage<CvmInfoV20260121> cvmPage(Page<CvmSnapshot> page) {
        return new CvmPage<>(page.map(cvm -> info(cvm, false)), page.total(), page.page(), page.pageSize(),
                page.pages());
    }

    @Override
    public List<CvmInfoV20260121> appCvms(List<CvmSnapshot> cvms) {
        return cvms.stream().map(cvm -> info(cvm, false)).toList();
    }

    @Override
    public AppInfoV20260121 app(AppSnapshot app) {
        List<CvmInfoV20260121> cvms = appCvms(app.cvms());
        return new AppInfoV20260121(app.id(), app.name(), app.appId(), "phala", null, text(app.createdAt()),
                app.kmsType(), null, cvms.isEmpty() ? null : cvms.get(0), cvms, cvms.size());
    }

    @Override
    public AppPage<AppInfoV20260121> appPage(Page<AppSnapshot> page) {
        return new AppPage<>(page.map(this::app), page.page(), page.pageSize(), page.total(), page.pages());
    }

    @Override
    public CurrentUser currentUser(SimulatedAccount account) {
        return ViewsV20260522.currentUserV20260121(account);
    }

    private static CvmInfoV20260121 info(CvmSnapshot cvm, boolean detail) {
        CvmSnapshot.Op op = cvm.operation();
        CvmInfo.Progress progress = op == null
                ? new CvmInfo.Progress(null, null, null)
                : new CvmInfo.Progress(op.target(), text(op.startedAt()), op.correlationId());
        SimulatedAccount account = SimulatedAccount.DEFAULT;
        return new CvmInfoV20260121(
                cvm.id(), cvm.name(), cvm.appId(), cvm.vmUuid(), cvm.instanceId(),
                new CvmInfoV20260121.Resource(cvm.instanceType(), cvm.vcpu(), cvm.memoryGb(), cvm.diskSize(), 0,
                        null, null),
                new Refs.NodeRef(cvm.nodeId(), cvm.nodeName(), cvm.region(), null, "active", CvmSnapshot.OS_VERSION),
                new CvmInfo.Os(CvmSnapshot.OS_NAME, CvmSnapshot.OS_VERSION, false, CvmSnapshot.OS_IMAGE_HASH),
                CvmSnapshot.KMS_TYPE,
                new CvmInfoV20260121.KmsInfo(null, null, null, null, null, cvm.envPubkey()),
                cvm.status(), progress, cvm.composeHash(),
                new CvmInfo.Gateway(cvm.gatewayBaseDomain(), null),
                List.of(), Wire.completeUrls(cvm),
                cvm.composeFlag("public_logs", true), cvm.composeFlag("public_sysinfo", true),
                cvm.composeFlag("public_tcbinfo", true), cvm.composeFlag("gateway_enabled", true),
                cvm.composeFlag("secure_time", false), false, cvm.storageFs(),
                workspace(account), user(account),
                text(cvm.createdAt()), text(cvm.updatedAt()),
                detail ? Wire.compose(cvm) : null);
    }
}
