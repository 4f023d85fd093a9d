package com.statefulcvm.web.config;

import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetDefinitionException;
import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutPlanner;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Profiles;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Binds the fleet file and refuses to start with a fleet that does not make sense. */
@Configuration
@EnableConfigurationProperties(OrchestratorProperties.class)
public class FleetConfiguration {

    /**
     * Unknown keys are errors (here at the top level, {@link FleetKeys} inside each set): a typo must not fall back to a
     * default. A secret in the fleet file is refused before anything is bound.
     */
    @Bean
    @ConfigurationProperties(prefix = "orchestrator.fleet", ignoreUnknownFields = false)
    public FleetDefinition fleetDefinition(Environment environment) {
        List<String> secrets = FleetKeys.secrets(environment);
        if (!secrets.isEmpty()) {
            throw new FleetDefinitionException(secrets);
        }
        return new FleetDefinition();
    }

    /** The procedures to deploy, read once at start: built in, and from the processes directory beside the fleet file. */
    @Bean
    public ProcedureResources procedureResources(OrchestratorProperties properties) {
        return ProcedureResources.read(properties.getProcessesDir());
    }

    /**
     * In the {@code phala} profile (the real Phala Cloud) every set that requires attestation must pin its platforms and
     * KMS key, whatever else is configured; elsewhere (the built-in simulator, the demo) "any" is accepted, with a WARN at
     * start-up and {@code attestationPolicy} saying so in the replica set's view.
     */
    @Bean
    public FleetValidator fleetValidator(OrchestratorProperties properties, WorkloadCatalog workloadTypes, Environment environment) {
        return new FleetValidator(workloadTypes, workloadTypes.names(), properties.getBootstrap().isCreateMissingApps(),
                Path.of(""), environment.acceptsProfiles(Profiles.of("phala")));
    }

    /** The workload types' descriptors, built in and configured ({@link WorkloadTypes}); a problem stops the start. */
    @Bean
    public WorkloadCatalog workloadCatalog(Environment environment, ProcedureResources procedures) {
        return WorkloadTypes.catalog(environment, procedures);
    }

    /** Validated fleet with every composeFile read into dockerCompose, so nothing later touches the file system. */
    @Bean
    public ValidatedFleet validatedFleet(FleetDefinition fleet, FleetValidator validator, WorkloadCatalog workloadTypes, Environment environment) {
        List<String> problems = new ArrayList<>(FleetKeys.unknown(environment, fleet));
        problems.addAll(validator.validate(fleet));
        if (!problems.isEmpty()) {
            throw new FleetDefinitionException(problems);
        }
        for (ReplicaSetSpec set : fleet.getReplicaSets()) {
            set.useWorkload(workloadTypes);
            if (set.getApprovals().getFourEyes() == null) {
                set.getApprovals().setFourEyes(fleet.isFourEyes());
            }
            boolean anyPlatform = set.getAttestation().getPlatforms() == null || set.getAttestation().getPlatforms().isEmpty();
            if (set.getAttestation().isRequired() && (anyPlatform || set.getAttestation().getKmsKeyIds().isEmpty())) {
                LoggerFactory.getLogger(FleetConfiguration.class).warn("Replica set '{}' admits ANY {} (simulator only): pin"
                        + " attestation.platforms and attestation.kms-key-ids before using the real Phala Cloud", set.getName(),
                        anyPlatform ? "platform (MRTD, RTMR0-2)" + (set.getAttestation().getKmsKeyIds().isEmpty() ? " and KMS key" : "") : "KMS key");
            }
            if (set.getComposeFile() != null && !set.getComposeFile().isBlank()) {
                try {
                    set.setDockerCompose(Files.readString(Path.of(set.getComposeFile())));
                } catch (IOException e) {
                    throw new UncheckedIOException("replica set '" + set.getName() + "': composeFile: " + e.getMessage(), e);
                }
            }
        }
        return new ValidatedFleet(fleet);
    }

    @Bean
    public RolloutPlanner rolloutPlanner() {
        return new RolloutPlanner();
    }

    @Bean
    public RolloutSettings rolloutSettings(OrchestratorProperties properties) {
        return new RolloutSettings(properties.getRollout().getCvmPollInterval(), properties.getRollout().getWakeFallback());
    }

    @Bean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** Marker that the fleet passed validation; beans that act on the fleet depend on it. */
    public record ValidatedFleet(FleetDefinition fleet) {
    }
}
