package com.statefulcvm.delegates.adoption;

import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.attestation.EvidenceJudge;
import com.statefulcvm.delegates.attestation.ExpectedComposeHashes;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SetCvms;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.admission.AdmissionDecision;
import com.statefulcvm.fleet.admission.AdmissionRequest;
import com.statefulcvm.fleet.admission.NonceBinding;
import com.statefulcvm.fleet.adoption.AdoptionSurvey;
import com.statefulcvm.fleet.adoption.SurveyedCvm;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Looks at every CVM of a set's app and changes nothing: its detail (compose, env key names, node, instance type,
 * image), what it publishes it runs, one health probe and one attestation whose verdict is reported, never recorded.
 * Nothing is stopped, restarted, updated or fenced, whatever it finds.
 */
@Component
public class AppSurveyor {

    private final PhalaCloudClient phala;
    private final ReplicaSets replicaSets;
    private final ExpectedComposeHashes composes;
    private final EvidenceJudge judge;
    private final InstanceHealth health;

    public AppSurveyor(PhalaCloudClient phala, ReplicaSets replicaSets, ExpectedComposeHashes composes, EvidenceJudge judge,
                       InstanceHealth health) {
        this.phala = phala;
        this.replicaSets = replicaSets;
        this.composes = composes;
        this.judge = judge;
        this.health = health;
    }

    /** @throws PhalaApiException when the app's CVMs cannot be listed */
    public AdoptionSurvey survey(ReplicaSetSpec spec) {
        String appId = replicaSets.appId(spec);
        List<SurveyedCvm> seen = new ArrayList<>();
        for (CvmInfo listed : phala.listAppCvms(appId)) {
            if ("deleting".equals(listed.status())) {
                continue;
            }
            OptionalInt ordinal = SetCvms.ordinalOf(spec, listed);
            seen.add(ordinal.isEmpty() ? look(listed) : survey(spec, appId, ordinal.getAsInt(), listed));
        }
        return AdoptionSurvey.of(spec.getName(), spec.getReplicas(), seen);
    }

    /** A CVM that fills no slot: named, never probed or attested. */
    private static SurveyedCvm look(CvmInfo cvm) {
        return new SurveyedCvm(null, cvm.name(), cvm.id(), cvm.instanceId(), cvm.status(), cvm.composeHash(), null, List.of(),
                null, null, null, null, null, null, null, null);
    }

    private SurveyedCvm survey(ReplicaSetSpec spec, String appId, int ordinal, CvmInfo listed) {
        String slot = Slots.name(spec.getName(), ordinal);
        CvmInfo cvm = detail(listed).withName(slot);
        ExpectedComposeHashes.Published published = null;
        String unpublished = null;
        try {
            published = composes.publishedBy(cvm);
            if (published == null) {
                unpublished = "Phala publishes no app compose for it, or a pre-launch script runs beside its compose";
            }
        } catch (PhalaApiException | IllegalArgumentException e) {
            unpublished = "its app compose could not be read: " + e.getMessage();
        }
        boolean reachable = cvm.isRunning() && cvm.isSettled() && cvm.instanceId() != null;
        Boolean healthy = null;
        String healthText = reachable ? null : "not running";
        if (reachable) {
            ProbeResult probe = health.probe(spec, cvm);
            healthy = probe.healthy();
            healthText = probe.detail();
        }
        Boolean admitted = null;
        String admission = null;
        if (spec.getAttestation().isRequired()) {
            AdmissionDecision decision = reachable ? attest(spec, appId, slot, cvm, published, unpublished)
                    : new AdmissionDecision(false, "EVIDENCE_UNAVAILABLE", List.of(slot + " is " + cvm.status() + ": no evidence to verify"));
            admitted = decision.admitted();
            admission = decision.summary();
        }
        var file = cvm.composeFile();
        return new SurveyedCvm(ordinal, listed.name(), cvm.id(), cvm.instanceId(), cvm.status(), cvm.composeHash(),
                published == null ? null : published.dockerCompose(),
                file == null || file.allowedEnvs() == null ? List.of() : file.allowedEnvs(),
                cvm.nodeInfo() == null ? null : cvm.nodeInfo().name(), cvm.resource() == null ? null : cvm.resource().instanceType(),
                cvm.os() == null ? null : cvm.os().name() + (cvm.os().version() == null ? "" : " " + cvm.os().version()),
                healthy, healthText, admitted, admission, null);
    }

    /** The CVM with its compose file; the list alone lacks it. */
    private CvmInfo detail(CvmInfo listed) {
        try {
            return phala.getCvm(listed.id());
        } catch (PhalaApiException e) {
            if (e.isNotFound()) {
                return listed;
            }
            throw e;
        }
    }

    /**
     * The admission's answer were the CVM's evidence checked now against what it publishes it runs: the app, the
     * platform, the KMS and its own compose, measured. A CVM that publishes nothing is refused: nothing proves what it runs.
     */
    private AdmissionDecision attest(ReplicaSetSpec spec, String appId, String slot, CvmInfo cvm,
                                     ExpectedComposeHashes.Published published, String unpublished) {
        if (published == null) {
            return new AdmissionDecision(false, "EVIDENCE_UNAVAILABLE", List.of(unpublished));
        }
        NonceBinding nonce = NonceBinding.fresh(appId, slot, cvm.instanceId());
        AdmissionRequest request = new AdmissionRequest(slot, appId, published.hashes(), cvm.instanceId(), nonce.reportDataHex());
        return judge.judge(spec, cvm, nonce, request).decision();
    }
}
