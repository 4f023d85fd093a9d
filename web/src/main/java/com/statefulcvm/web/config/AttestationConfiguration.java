package com.statefulcvm.web.config;

import com.statefulcvm.connectors.attestation.AttestationVerifier;
import com.statefulcvm.connectors.attestation.CollateralSource;
import com.statefulcvm.connectors.attestation.DstackVerifierClient;
import com.statefulcvm.connectors.attestation.IntelRootCa;
import com.statefulcvm.connectors.attestation.LocalTdxVerifier;
import com.statefulcvm.connectors.attestation.PccsCollateralSource;
import com.statefulcvm.connectors.attestation.VerifyOptions;
import com.statefulcvm.connectors.guestagent.GuestAgentClient;
import com.statefulcvm.delegates.attestation.AttestationSettings;
import com.statefulcvm.simulator.evidence.SimulatedTdxAuthority;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * Which verifier decides, and what it trusts. Intel's root is always pinned; the simulator's own root is added only
 * when the simulator runs in this application and is the Phala API it talks to (a loopback base-url), so simulated
 * evidence can never pass beside the real service. A rehearsal of production against a standalone simulator names its
 * trust anchor explicitly ({@link RehearsalTrustAnchor}), refused beside any Phala API that is not this machine.
 */
@Configuration
public class AttestationConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AttestationConfiguration.class);

    @Bean
    public GuestAgentClient guestAgentClient(OrchestratorProperties properties) {
        return new GuestAgentClient(properties.getAttestation().getTimeout());
    }

    @Bean
    public AttestationVerifier attestationVerifier(OrchestratorProperties properties) {
        OrchestratorProperties.Attestation a = properties.getAttestation();
        if (a.getVerifier() == OrchestratorProperties.Attestation.VerifierKind.DSTACK_VERIFIER) {
            if (a.getDstackVerifierUrl() == null || a.getDstackVerifierUrl().isBlank()) {
                throw new IllegalStateException("orchestrator.attestation.dstack-verifier-url is required with verifier=dstack-verifier");
            }
            return DstackVerifierClient.create(a.getDstackVerifierUrl(), a.getTimeout());
        }
        return new LocalTdxVerifier();
    }

    @Bean
    public AttestationSettings attestationSettings(OrchestratorProperties properties,
                                                   ObjectProvider<SimulatedTdxAuthority> simulator) {
        OrchestratorProperties.Attestation a = properties.getAttestation();
        List<X509Certificate> anchors = new ArrayList<>(List.of(IntelRootCa.certificate()));
        SimulatedTdxAuthority simulated = simulator.getIfAvailable();
        if (simulated != null && PhalaTarget.isLocal(properties.getPhala().getBaseUrl())) {
            anchors.add(simulated.rootCertificate());
            log.warn("The embedded simulator's test root CA is trusted for attestation (simulator.enabled=true); "
                    + "never run a production deployment like this");
        } else if (simulated != null) {
            // beside the real service, evidence signed by the simulator's own CA would pass as real TDX evidence
            log.warn("The embedded simulator runs, but orchestrator.phala.base-url ({}) is not this machine: its test root "
                    + "CA is not trusted for attestation", properties.getPhala().getBaseUrl());
        }
        X509Certificate rehearsal = RehearsalTrustAnchor.read(a.getRehearsalTrustAnchor(), properties.getPhala().getBaseUrl());
        if (rehearsal != null) {
            anchors.add(rehearsal);
            log.warn("REHEARSAL: attestation trusts {} ({}) beside Intel's root, as orchestrator.attestation.rehearsal-trust-anchor"
                    + " says; the Phala API is {} on this machine. Evidence it signs passes as real TDX evidence: never point"
                    + " this deployment at the real Phala Cloud", rehearsal.getSubjectX500Principal().getName(),
                    a.getRehearsalTrustAnchor(), properties.getPhala().getBaseUrl());
        }
        CollateralSource collateral = a.getPccsUrl() == null || a.getPccsUrl().isBlank()
                ? null : PccsCollateralSource.create(a.getPccsUrl(), a.getTimeout());
        List<X509Certificate> trusted = List.copyOf(anchors);
        return new AttestationSettings(a.getGuestAgentPort(), at -> new VerifyOptions(at, trusted, collateral));
    }
}
