package com.statefulcvm.web.config;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.HttpHealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.phala.EnvKeyTrust;
import com.statefulcvm.connectors.phala.EnvKeyVerifier;
import com.statefulcvm.connectors.phala.PhalaCallObserver;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.PhalaCloudClients;
import com.statefulcvm.connectors.phala.PhalaCloudSettings;
import com.statefulcvm.connectors.phala.RetrySettings;
import com.statefulcvm.simulator.cloud.SimulatedKms;
import com.statefulcvm.delegates.support.CircuitBreakingClient;
import com.statefulcvm.delegates.support.PhalaCircuit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.Set;

@Configuration
public class ConnectorConfiguration {

    /** Every Phala call of the node goes through the circuit (docs/operations.md#when-phala-cloud-is-down). */
    @Bean
    public PhalaCloudClient phalaCloudClient(OrchestratorProperties properties, Environment environment,
                                             ObjectProvider<PhalaCallObserver> observer, PhalaCircuit circuit) {
        OrchestratorProperties.Phala p = properties.getPhala();
        String apiKey = PhalaApiKey.resolve(p, environment.getProperty("simulator.enabled", Boolean.class, false));
        return CircuitBreakingClient.wrap(PhalaCloudClients.create(new PhalaCloudSettings(p.getBaseUrl(), apiKey, p.getApiVersion(),
                p.getConnectTimeout(), p.getReadTimeout(),
                new RetrySettings(p.getMaxAttempts(), p.getInitialBackoff(), p.getMaxBackoff())),
                observer.getIfAvailable(() -> PhalaCallObserver.NONE)), circuit);
    }

    @Bean
    public PhalaCircuit phalaCircuit(OrchestratorProperties properties, Clock clock) {
        return new PhalaCircuit(clock, properties.getPhalaOutage().getFirstWait(), properties.getPhalaOutage().getMaxWait());
    }

    /**
     * The KMS env keys are read from and the signing keys they must be signed by; with the embedded simulator its own
     * KMS and signing key (so simulated keys never pass in a deployment without it).
     */
    @Bean
    public EnvKeyTrust envKeyTrust(OrchestratorProperties properties, Environment environment) {
        OrchestratorProperties.Phala p = properties.getPhala();
        Set<String> signers = new LinkedHashSet<>();
        p.getKmsSigners().stream().filter(key -> key != null && !key.isBlank()).map(String::trim).forEach(signers::add);
        String kms = p.getKms();
        if (environment.getProperty("simulator.enabled", Boolean.class, false)) {
            signers.add(SimulatedKms.signerPublicKey());
            if (kms == null || kms.isBlank()) {
                kms = SimulatedKms.SLUG;
            }
        }
        return new EnvKeyTrust(kms, new EnvKeyVerifier(signers));
    }

    @Bean
    public HealthProbe healthProbe() {
        return new HttpHealthProbe();
    }

    @Bean
    public InstanceUrlTemplate instanceUrlTemplate(OrchestratorProperties properties) {
        return new InstanceUrlTemplate(properties.getHealth().getUrlTemplate());
    }
}
