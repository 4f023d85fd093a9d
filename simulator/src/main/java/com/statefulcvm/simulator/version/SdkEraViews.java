package com.statefulcvm.simulator.version;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.AttestationInfo;
import com.statefulcvm.simulator.api.KmsInfo;
import com.statefulcvm.simulator.api.LegacyCvmState;
import com.statefulcvm.simulator.api.LegacyNode;
import com.statefulcvm.simulator.api.LegacyRevisionPage;
import com.statefulcvm.simulator.api.LegacyUpdateResult;
import com.statefulcvm.simulator.api.LegacyVm;
import com.statefulcvm.simulator.api.MachineInfo;
import com.statefulcvm.simulator.api.NetworkInfo;
import com.statefulcvm.simulator.api.Refs;
import com.statefulcvm.simulator.cloud.ComposeHasher;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Page;
import com.statefulcvm.simulator.cloud.RevisionSnapshot;
import com.statefulcvm.simulator.cloud.SimulatedAccount;
import com.statefulcvm.simulator.cloud.UpdateOutcome;

import static com.statefulcvm.simulator.version.Wire.text;

/**
 * What versions 2025-10-28 and 2026-01-21 (those of the official TypeScript SDK 0.2.x and CLI 1.1.x) answer alike,
 * read from the SDK's zod schemas: lifecycle calls, commits and new instances answer the VM record
 * ({@code VMSchema}: integer {@code id}, {@code teepod_id}, {@code memory} in MB); the state leaves out empty fields
 * ({@code CvmStateSchema} has optional strings, never null) and its {@code id} is the vm_uuid; network and URLs
 * never carry an instance URL of null; the attestation's {@code compose_file} is JSON text; updates answer a
 * {@code message}; revisions name their user, CVM and workspace as references. The CVMInfo and AppInfo shapes are
 * each version's own.
 */
abstract class SdkEraViews implements ApiViews {

    @Override
    public LegacyVm created(CvmSnapshot cvm) {
        return vm(cvm);
    }

    @Override
    public LegacyVm instanceCreated(CvmSnapshot cvm) {
        return vm(cvm);
    }

    @Override
    public LegacyVm lifecycle(CvmSnapshot cvm) {
        return vm(cvm);
    }

    @Override
    public LegacyCvmState state(CvmSnapshot cvm) {
        return new LegacyCvmState(cvm.vmUuid(), cvm.instanceId(), cvm.name(), cvm.status(), cvm.uptime(),
                text(cvm.exitedAt()), cvm.bootProgress(), null, cvm.shutdownProgress());
    }

    @Override
    public NetworkInfo network(CvmSnapshot cvm) {
        return Wire.network(cvm, Wire.completeUrls(cvm));
    }

    @Override
    public AttestationInfo attestation(AttestationInfo attestation) {
        if (attestation.composeFile() instanceof Map<?, ?> compose) {
            @SuppressWarnings("unchecked")
            Map<String, ?> typed = (Map<String, ?>) compose;
            return attestation.withComposeFile(ComposeHasher.canonicalJson(typed));
        }
        return attestation;
    }

    @Override
    public LegacyRevisionPage revisions(Page<RevisionSnapshot> page) {
        return new LegacyRevisionPage(page.map(SdkEraViews::revision), page.total(), page.page(), page.pageSize(),
                page.pages());
    }

    @Override
    public LegacyRevisionPage.Detail revision(RevisionSnapshot r, boolean rawComposeFile) {
        SimulatedAccount account = SimulatedAccount.DEFAULT;
        return new LegacyRevisionPage.Detail(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(),
                rawComposeFile ? ComposeHasher.canonicalJson(r.compose()) : new TreeMap<>(r.compose()),
                r.encryptedEnv() == null ? "" : r.encryptedEnv(), "{}", text(r.createdAt()), null, r.operationType(), user(account), cvmRef(r),
                workspace(account));
    }

    @Override
    public LegacyUpdateResult composeUpdate(UpdateOutcome outcome) {
        return update(outcome, "Docker compose update accepted; the CVM is being updated", null);
    }

    @Override
    public LegacyUpdateResult envUpdate(UpdateOutcome outcome) {
        return update(outcome, "Environment update accepted; the CVM is being updated",
                outcome.allowedEnvsChanged());
    }

    @Override
    public LegacyUpdateResult redeploy(UpdateOutcome outcome) {
        return update(outcome, "Redeploy accepted; the CVMs are being updated", null);
    }

    private static LegacyUpdateResult update(UpdateOutcome outcome, String startedMessage, Boolean envsChanged) {
        String message = outcome.started() ? startedMessage : "Nothing changed; the CVM is left as it is";
        return new LegacyUpdateResult(outcome.status(), message, outcome.correlationId(), envsChanged);
    }

    // ------------------------------------------------------------ pieces both versions use

    /** The VM record (SDK {@code VMSchema} / {@code CommitCvmProvisionSchema}). */
    static LegacyVm vm(CvmSnapshot cvm) {
        return new LegacyVm(cvm.seq(), cvm.name(), cvm.status(), cvm.nodeId(), node(cvm),
                SimulatedAccount.LEGACY_USER_ID, cvm.appId(), cvm.vmUuid(), cvm.instanceId(), cvm.dashboardUrl(),
                CvmSnapshot.OS_NAME, cvm.vcpu(), memoryMb(cvm), cvm.diskSize(), manifestVersion(cvm),
                "1.0.0", runner(cvm), cvm.dockerComposeFile(), features(cvm), text(cvm.createdAt()),
                cvm.envPubkey());
    }

    static LegacyNode node(CvmSnapshot cvm) {
        return new LegacyNode(cvm.nodeId(), cvm.nodeName(), cvm.region());
    }

    static int memoryMb(CvmSnapshot cvm) {
        return cvm.memoryGb() * 1024;
    }

    static MachineInfo machineInfo(CvmSnapshot cvm) {
        return new MachineInfo(cvm.vcpu(), memoryMb(cvm), cvm.diskSize(), 0);
    }

    /** The simulator's one KMS (off-chain) in the SDK's {@code KmsInfoSchema}. */
    static KmsInfo kmsInfo(CvmSnapshot cvm) {
        return new KmsInfo(CvmSnapshot.KMS_ID, CvmSnapshot.KMS_SLUG, "https://kms." + cvm.gatewayBaseDomain(),
                CvmSnapshot.KMS_VERSION, null, null, null);
    }

    /** The integer id as the string that {@code id} fields declared as strings carry. */
    static String idText(CvmSnapshot cvm) {
        return Long.toString(cvm.seq());
    }

    static Refs.UserRef user(SimulatedAccount account) {
        return new Refs.UserRef(account.userId(), account.username());
    }

    static Refs.WorkspaceRef workspace(SimulatedAccount account) {
        return new Refs.WorkspaceRef(account.workspaceId(), account.workspaceName(), account.workspaceSlug());
    }

    private static LegacyRevisionPage.Revision revision(RevisionSnapshot r) {
        SimulatedAccount account = SimulatedAccount.DEFAULT;
        return new LegacyRevisionPage.Revision(r.revisionId(), r.appId(), r.vmUuid(), r.composeHash(),
                text(r.createdAt()), null, r.operationType(), user(account), cvmRef(r), workspace(account));
    }

    private static Refs.CvmRef cvmRef(RevisionSnapshot r) {
        CvmSnapshot cvm = r.cvm();
        return new Refs.CvmRef(cvm == null ? null : idText(cvm), cvm == null ? null : cvm.name(), r.appId(),
                r.vmUuid());
    }

    private static int manifestVersion(CvmSnapshot cvm) {
        return cvm.composeFile().get("manifest_version") instanceof Number n ? n.intValue() : 2;
    }

    private static String runner(CvmSnapshot cvm) {
        return cvm.composeFile().get("runner") instanceof String text ? text : "docker-compose";
    }

    private static List<String> features(CvmSnapshot cvm) {
        List<String> features = new ArrayList<>();
        if (cvm.composeFlag("kms_enabled", true)) {
            features.add("kms");
        }
        if (cvm.composeFlag("gateway_enabled", true)) {
            features.add("tproxy-net");
        }
        return features;
    }
}
