package com.statefulcvm.delegates.attestation;

import com.statefulcvm.connectors.attestation.AttestationVerifier;
import com.statefulcvm.connectors.attestation.Check;
import com.statefulcvm.connectors.attestation.Evidence;
import com.statefulcvm.connectors.attestation.Verdict;
import com.statefulcvm.connectors.guestagent.GuestAgentClient;
import com.statefulcvm.connectors.guestagent.GuestAgentException;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.AttestationSpec;
import com.statefulcvm.fleet.PlatformMeasurements;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.AdmissionDecision;
import com.statefulcvm.fleet.admission.AdmissionPolicy;
import com.statefulcvm.fleet.admission.AdmissionRequest;
import com.statefulcvm.fleet.admission.AttestedIdentity;
import com.statefulcvm.fleet.admission.NonceBinding;
import com.statefulcvm.fleet.admission.PinnedPlatform;
import com.statefulcvm.fleet.admission.PinnedPlatforms;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Fresh evidence from a CVM's guest agent, bound to a nonce, verified, and the set's admission policy applied to what
 * it proves. Writes nothing: the attestation step records the verdict, an adoption's survey only reports it.
 */
@Component
public class EvidenceJudge {

    private final GuestAgentClient guestAgent;
    private final InstanceUrlTemplate urls;
    private final AttestationVerifier verifier;
    private final AttestationSettings settings;
    private final PinnedPlatforms pins;
    private final Clock clock;

    public EvidenceJudge(GuestAgentClient guestAgent, InstanceUrlTemplate urls, AttestationVerifier verifier,
                         AttestationSettings settings, PinnedPlatforms pins, Clock clock) {
        this.guestAgent = guestAgent;
        this.urls = urls;
        this.verifier = verifier;
        this.settings = settings;
        this.pins = pins;
        this.clock = clock;
    }

    /**
     * @param checks   each verification check with its result, one per line ("" when no evidence was verified)
     * @param identity what the evidence proves; null when there was none to verify (no guest agent, malformed)
     */
    public record Judgement(AdmissionDecision decision, String checks, AttestedIdentity identity) {
    }

    public Judgement judge(ReplicaSetSpec spec, CvmInfo cvm, NonceBinding nonce, AdmissionRequest request) {
        try {
            Verdict verdict = verifier.verify(evidence(cvm, nonce), settings.options().apply(clock.instant()));
            String checks = verdict.checks().stream().map(c -> c.name() + (c.passed() ? " ok" : " FAILED: " + c.reason()))
                    .collect(Collectors.joining("\n"));
            AttestedIdentity identity = identityOf(verdict);
            AdmissionDecision decision = new AdmissionPolicy(withApprovedPins(spec.getName(), spec.getAttestation())).decide(request, identity);
            return new Judgement(decision, checks, identity);
        } catch (GuestAgentException e) {
            return new Judgement(new AdmissionDecision(false, "EVIDENCE_UNAVAILABLE", List.of(e.getMessage())), "", null);
        } catch (IllegalArgumentException malformed) {
            return new Judgement(new AdmissionDecision(false, "QUOTE_INVALID", List.of("malformed evidence: " + malformed.getMessage())), "", null);
        }
    }

    /** The platform measurements the evidence showed, in full, for an approver to compare and pin; null without them. */
    public static String platformOf(AttestedIdentity identity) {
        return identity.mrtd() == null ? null
                : new PlatformMeasurements(null, identity.mrtd(), identity.rtmr0(), identity.rtmr1(), identity.rtmr2()).full();
    }

    /**
     * The set's policy with the platforms approvers pinned after refusals (decide-attestation-refusals.bpmn) accepted
     * beside the fleet file's; a set that pins none accepts any platform already.
     */
    private AttestationSpec withApprovedPins(String set, AttestationSpec policy) {
        if (policy.getPlatforms() == null || policy.getPlatforms().isEmpty()) {
            return policy;
        }
        List<PlatformMeasurements> approved = pins.pinned(set).stream().map(PinnedPlatform::platform).toList();
        return approved.isEmpty() ? policy : policy.withMorePlatforms(approved);
    }

    /** Fresh evidence from the CVM's guest agent, bound to this nonce. */
    private Evidence evidence(CvmInfo cvm, NonceBinding nonce) {
        URI agent = urls.resolve(cvm, settings.guestAgentPort(), "");
        return Evidence.fromGetQuoteJson(guestAgent.getQuote(agent, nonce.reportDataHex()));
    }

    static AttestedIdentity identityOf(Verdict verdict) {
        var id = verdict.identity();
        List<String> failed = verdict.checks().stream().filter(c -> !c.passed()).map(Check::name).toList();
        return new AttestedIdentity(verdict.valid(), failed,
                id == null ? null : id.appId(), id == null ? null : id.composeHash(), id == null ? null : id.instanceId(),
                id == null ? null : id.osImageHash(), id == null ? null : id.keyProviderName(), id == null ? null : id.keyProviderId(),
                verdict.tcbStatus(), verdict.reportData(), id == null ? null : id.mrtd(), id == null ? null : id.rtmr0(),
                id == null ? null : id.rtmr1(), id == null ? null : id.rtmr2());
    }
}
