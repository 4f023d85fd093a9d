package com.statefulcvm.simulator.version;

import java.util.List;

import com.statefulcvm.simulator.api.AppInfoV20251028;
import com.statefulcvm.simulator.api.AppPage;
import com.statefulcvm.simulator.api.CurrentUserV20251028;
import com.statefulcvm.simulator.api.CvmDetailV20251028;
import com.statefulcvm.simulator.api.CvmInfoV20251028;
import com.statefulcvm.simulator.api.CvmPage;
import com.statefulcvm.simulator.cloud.AppSnapshot;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Page;
import com.statefulcvm.simulator.cloud.SimulatedAccount;

import static com.statefulcvm.simulator.version.Wire.text;

/**
 * Version 2025-10-28 (SDK {@code types/cvm_info_v20251028}, {@code types/app_info_v20251028},
 * {@code credentials/current_user_v20251028}): the CVM detail is flat with an integer {@code id},
 * {@code teepod_id}/{@code teepod}, {@code memory} in MB and {@code kms_info}; in lists each CVM carries the VM under
 * {@code hosted} (whose {@code id} is the vm_uuid) and no integer id; apps list their CVMs as basic records.
 */
final class ViewsV20251028 extends SdkEraViews {

    @Override
    public ApiVersion version() {
        return ApiVersion.V2025_10_28;
    }

    @Override
    public CvmDetailV20251028 cvm(CvmSnapshot cvm) {
        return new CvmDetailV20251028(cvm.seq(), cvm.name(), cvm.status(), cvm.inProgress(), cvm.nodeId(),
                node(cvm), cvm.appId(), cvm.vmUuid(), cvm.instanceId(), cvm.vcpu(), memoryMb(cvm), cvm.diskSize(),
                CvmSnapshot.OS_NAME, cvm.envPubkey(), false, null, null, cvm.instanceType(),
                cvm.composeFlag("public_sysinfo", true), cvm.composeFlag("public_logs", true), cvm.dashboardUrl(),
                null, kmsInfo(cvm), null, null, null, Wire.completeUrls(cvm), cvm.gatewayBaseDomain(),
                machineInfo(cvm), text(cvm.createdAt()), text(cvm.updatedAt()));
    }

    @Override
    public CvmPage<CvmInfoV20251028> cvmPage(Page<CvmSnapshot> page) {
        return new CvmPage<>(page.map(ViewsV20251028::listed), page.total(), page.page(), page.pageSize(),
                page.pages());
    }

    @Override
    public List<CvmInfoV20251028> appCvms(List<CvmSnapshot> cvms) {
        return cvms.stream().map(ViewsV20251028::listed).toList();
    }

    @Override
    public AppInfoV20251028 app(AppSnapshot app) {
        List<AppInfoV20251028.CvmBasicInfo> cvms = app.cvms().stream().map(ViewsV20251028::basic).toList();
        return new AppInfoV20251028(app.id(), app.name(), app.appId(), "phala", null, text(app.createdAt()),
                app.kmsType(), null, cvms.isEmpty() ? null : cvms.get(0), cvms, cvms.size());
    }

    @Override
    public AppPage<AppInfoV20251028> appPage(Page<AppSnapshot> page) {
        return new AppPage<>(page.map(this::app), page.page(), page.pageSize(), page.total(), page.pages());
    }

    @Override
    public CurrentUserV20251028 currentUser(SimulatedAccount account) {
        return new CurrentUserV20251028(account.username(), account.email(), Double.parseDouble(account.balance()),
                0, "", account.workspaceName(), account.tier());
    }

    private static CvmInfoV20251028 listed(CvmSnapshot cvm) {
        CvmInfoV20251028.Hosted hosted = new CvmInfoV20251028.Hosted(cvm.vmUuid(), cvm.name(), cvm.status(),
                cvm.uptime(), cvm.dashboardUrl(), cvm.appId(), cvm.instanceId(), text(cvm.exitedAt()),
                cvm.bootProgress(), null, cvm.shutdownProgress(), CvmSnapshot.OS_VERSION);
        SimulatedAccount account = SimulatedAccount.DEFAULT;
        return new CvmInfoV20251028(hosted, cvm.name(),
                new CvmInfoV20251028.ManagedUser(SimulatedAccount.LEGACY_USER_ID, account.username()), node(cvm),
                false, cvm.status(), cvm.inProgress(), cvm.dashboardUrl(), null, false, null, null, "hourly",
                kmsInfo(cvm), cvm.vcpu(), memoryMb(cvm), cvm.diskSize(), cvm.gatewayBaseDomain(),
                Wire.completeUrls(cvm), machineInfo(cvm), text(cvm.updatedAt()));
    }

    private static AppInfoV20251028.CvmBasicInfo basic(CvmSnapshot cvm) {
        return new AppInfoV20251028.CvmBasicInfo(cvm.vmUuid(), cvm.appId(), cvm.name(), cvm.status(), cvm.vcpu(),
                memoryMb(cvm), cvm.diskSize(), cvm.nodeId(), cvm.nodeName(), cvm.region(), CvmSnapshot.KMS_TYPE,
                cvm.instanceType(), false, CvmSnapshot.OS_NAME, CvmSnapshot.KMS_SLUG, CvmSnapshot.KMS_ID,
                cvm.instanceId(), machineInfo(cvm), text(cvm.updatedAt()));
    }
}
