package com.statefulcvm.web.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Deployment settings of the orchestrator itself; the fleet is bound separately ({@code orchestrator.fleet}). */
@Validated
@ConfigurationProperties("orchestrator")
public class OrchestratorProperties {

    @Valid
    private Phala phala = new Phala();
    @Valid
    private Health health = new Health();
    @Valid
    private Rollout rollout = new Rollout();
    @Valid
    private Bootstrap bootstrap = new Bootstrap();
    @Valid
    private Observe observe = new Observe();
    @Valid
    private Attestation attestation = new Attestation();
    @Valid
    private Api api = new Api();
    @Valid
    private Effects effects = new Effects();
    @Valid
    private PhalaOutage phalaOutage = new PhalaOutage();
    @Valid
    private FleetReads fleetReads = new FleetReads();
    /**
     * BPMN, DMN and forms deployed at start beside the built-in ones (ProcedureResources): a file here whose process,
     * decision or form id is a built-in's takes its place. Beside the fleet file by default; absent: none.
     */
    private String processesDir = "config/processes";

    public Phala getPhala() { return phala; }
    public void setPhala(Phala phala) { this.phala = phala; }
    public Health getHealth() { return health; }
    public void setHealth(Health health) { this.health = health; }
    public Rollout getRollout() { return rollout; }
    public void setRollout(Rollout rollout) { this.rollout = rollout; }
    public Bootstrap getBootstrap() { return bootstrap; }
    public void setBootstrap(Bootstrap bootstrap) { this.bootstrap = bootstrap; }
    public Attestation getAttestation() { return attestation; }
    public void setAttestation(Attestation attestation) { this.attestation = attestation; }
    public Api getApi() { return api; }
    public void setApi(Api api) { this.api = api; }
    public Observe getObserve() { return observe; }
    public void setObserve(Observe observe) { this.observe = observe; }
    public Effects getEffects() { return effects; }
    public void setEffects(Effects effects) { this.effects = effects; }
    public PhalaOutage getPhalaOutage() { return phalaOutage; }
    public void setPhalaOutage(PhalaOutage phalaOutage) { this.phalaOutage = phalaOutage; }
    public FleetReads getFleetReads() { return fleetReads; }
    public void setFleetReads(FleetReads fleetReads) { this.fleetReads = fleetReads; }
    public String getProcessesDir() { return processesDir; }
    public void setProcessesDir(String processesDir) { this.processesDir = processesDir; }

    public static class Phala {
        @NotBlank
        private String baseUrl = "https://cloud-api.phala.com/api/v1";
        /**
         * Secret: never logged, never in a process variable. From the environment (PHALA_API_KEY, or Phala's own
         * PHALA_CLOUD_API_KEY); never from the fleet file (FleetKeys refuses it there).
         */
        private String apiKey;
        /** A file holding the API key (a mounted secret); read once at start-up, surrounding whitespace dropped. */
        private String apiKeyFile;
        /** The official SDK 0.2.9's default (docs/phala-api.md): every answer then has a schema in that SDK. */
        @NotBlank
        private String apiVersion = "2026-01-21";
        @NotNull
        private Duration connectTimeout = Duration.ofSeconds(10);
        @NotNull
        private Duration readTimeout = Duration.ofSeconds(30);
        /** Client-level retries are short: the engine owns the long ones (RetrySettings). */
        @Min(1)
        private int maxAttempts = 3;
        @NotNull
        private Duration initialBackoff = Duration.ofMillis(500);
        @NotNull
        private Duration maxBackoff = Duration.ofSeconds(5);
        /**
         * The KMS an app's env encryption key is asked from ({@code GET /kms/{kms}/pubkey/{app_id}}): its id or slug.
         * With the embedded simulator its own KMS.
         */
        private String kms;
        /**
         * The KMS signing keys (compressed secp256k1, hex) an env encryption key must be signed by before anything is
         * sealed to it. With the embedded simulator its own KMS's key is added.
         */
        private List<String> kmsSigners = new ArrayList<>();

        public String getBaseUrl() { return baseUrl; }
        public void setBaseUrl(String baseUrl) { this.baseUrl = baseUrl; }
        public String getApiKey() { return apiKey; }
        public void setApiKey(String apiKey) { this.apiKey = apiKey; }
        public String getApiKeyFile() { return apiKeyFile; }
        public void setApiKeyFile(String apiKeyFile) { this.apiKeyFile = apiKeyFile; }

        @Override
        public String toString() {
            return "Phala[baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null || apiKey.isBlank() ? "<none>" : "****")
                    + ", apiKeyFile=" + apiKeyFile + ", apiVersion=" + apiVersion + "]";
        }
        public String getApiVersion() { return apiVersion; }
        public void setApiVersion(String apiVersion) { this.apiVersion = apiVersion; }
        public Duration getConnectTimeout() { return connectTimeout; }
        public void setConnectTimeout(Duration connectTimeout) { this.connectTimeout = connectTimeout; }
        public Duration getReadTimeout() { return readTimeout; }
        public void setReadTimeout(Duration readTimeout) { this.readTimeout = readTimeout; }
        public int getMaxAttempts() { return maxAttempts; }
        public void setMaxAttempts(int maxAttempts) { this.maxAttempts = maxAttempts; }
        public Duration getInitialBackoff() { return initialBackoff; }
        public void setInitialBackoff(Duration initialBackoff) { this.initialBackoff = initialBackoff; }
        public Duration getMaxBackoff() { return maxBackoff; }
        public void setMaxBackoff(Duration maxBackoff) { this.maxBackoff = maxBackoff; }
        public String getKms() { return kms; }
        public void setKms(String kms) { this.kms = kms; }
        public List<String> getKmsSigners() { return kmsSigners; }
        public void setKmsSigners(List<String> kmsSigners) { this.kmsSigners = kmsSigners; }
    }

    public static class Api {
        /** The largest request body /api/* accepts; larger ones are answered 413. */
        @NotNull
        private DataSize maxRequestSize = DataSize.ofKilobytes(512);

        public DataSize getMaxRequestSize() { return maxRequestSize; }
        public void setMaxRequestSize(DataSize maxRequestSize) { this.maxRequestSize = maxRequestSize; }
    }

    public static class Health {
        /** Placeholders {instanceId}, {port}, {baseDomain}, {path}; the gateway form reaches exactly one instance. */
        @NotBlank
        private String urlTemplate = "https://{instanceId}-{port}.{baseDomain}{path}";

        public String getUrlTemplate() { return urlTemplate; }
        public void setUrlTemplate(String urlTemplate) { this.urlTemplate = urlTemplate; }
    }

    public static class Rollout {
        /**
         * How often a procedure asks Phala whether an updating CVM has settled; for a rollout's steps, how often the
         * step waker looks at every CVM a step waits for (one status batch for all of them) and at the probes due.
         */
        @NotNull
        private Duration cvmPollInterval = Duration.ofSeconds(5);
        /**
         * A rollout step whose waker did not wake it polls anyway after this long (a node without a waker, Phala not
         * answering the waker): the engine's own timer, the fallback.
         */
        @NotNull
        private Duration wakeFallback = Duration.ofSeconds(30);

        public Duration getCvmPollInterval() { return cvmPollInterval; }
        public void setCvmPollInterval(Duration cvmPollInterval) { this.cvmPollInterval = cvmPollInterval; }
        /** Threads that wake rollout steps (each runs the steps it wakes up to their next wait). */
        @jakarta.validation.constraints.Min(1)
        private int wakerThreads = 4;

        public Duration getWakeFallback() { return wakeFallback; }
        public void setWakeFallback(Duration wakeFallback) { this.wakeFallback = wakeFallback; }
        public int getWakerThreads() { return wakerThreads; }
        public void setWakerThreads(int wakerThreads) { this.wakerThreads = wakerThreads; }
    }

    public static class Bootstrap {
        /** Create an app for every set without appId at start-up (the simulator demo); off against the real cloud. */
        private boolean createMissingApps = false;
        /**
         * How long the bootstrap waits for each CVM it creates: the service's answer to a create while another CVM of
         * the workspace is being created is retried with backoff until then.
         */
        @NotNull
        private Duration createTimeout = Duration.ofMinutes(10);

        public boolean isCreateMissingApps() { return createMissingApps; }
        public void setCreateMissingApps(boolean createMissingApps) { this.createMissingApps = createMissingApps; }
        public Duration getCreateTimeout() { return createTimeout; }
        public void setCreateTimeout(Duration createTimeout) { this.createTimeout = createTimeout; }
    }

    public static class Attestation {
        public enum VerifierKind { LOCAL, DSTACK_VERIFIER }

        /** local: verify quotes in this JVM against the pinned root; dstack-verifier: ask that service. */
        @NotNull
        private VerifierKind verifier = VerifierKind.LOCAL;
        private String dstackVerifierUrl;
        /** A PCCS to fetch collateral (TCB info, QE identity, CRLs) from; without one, evidence must carry it. */
        private String pccsUrl;
        /** The port of each instance's gateway URL where the workload exposes the guest agent's GetQuote. */
        @Min(1)
        private int guestAgentPort = 8090;
        @NotNull
        private Duration timeout = Duration.ofSeconds(10);
        /**
         * A rehearsal of production against a standalone simulator on this machine: the PEM file of its trust anchor
         * ({@code curl $SIMULATOR/simulator/_admin/trust-anchor}), trusted beside Intel's root. Refused at start-up
         * unless orchestrator.phala.base-url is a loopback address; logged at WARN at every start.
         */
        private String rehearsalTrustAnchor;

        public String getRehearsalTrustAnchor() { return rehearsalTrustAnchor; }
        public void setRehearsalTrustAnchor(String rehearsalTrustAnchor) { this.rehearsalTrustAnchor = rehearsalTrustAnchor; }
        public VerifierKind getVerifier() { return verifier; }
        public void setVerifier(VerifierKind verifier) { this.verifier = verifier; }
        public String getDstackVerifierUrl() { return dstackVerifierUrl; }
        public void setDstackVerifierUrl(String dstackVerifierUrl) { this.dstackVerifierUrl = dstackVerifierUrl; }
        public String getPccsUrl() { return pccsUrl; }
        public void setPccsUrl(String pccsUrl) { this.pccsUrl = pccsUrl; }
        public int getGuestAgentPort() { return guestAgentPort; }
        public void setGuestAgentPort(int guestAgentPort) { this.guestAgentPort = guestAgentPort; }
        public Duration getTimeout() { return timeout; }
        public void setTimeout(Duration timeout) { this.timeout = timeout; }
    }

    public static class Observe {
        /** Refresh the registry from Phala and probe every running instance in the background. */
        private boolean enabled = true;
        /** How often; read by the scheduler as {@code orchestrator.observe.interval}. */
        @NotNull
        private Duration interval = Duration.ofSeconds(15);

        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean enabled) { this.enabled = enabled; }

        public Duration getInterval() { return interval; }
        public void setInterval(Duration interval) { this.interval = interval; }
    }

    /** Exactly-once effects (docs/operations.md#exactly-once-effects). */
    public static class Effects {
        /** An intent whose call has not been seen to end may still be in flight this long (longer than any Phala call). */
        @NotNull
        private Duration inFlightGuard = Duration.ofMinutes(2);
        /**
         * Connections of the intents' own pool; unset, one per thread that may write or read an intent while it holds
         * its engine connection: the job executor's and the step waker's (see EffectConfiguration).
         */
        @Min(1)
        private Integer poolSize;

        public Duration getInFlightGuard() { return inFlightGuard; }
        public void setInFlightGuard(Duration inFlightGuard) { this.inFlightGuard = inFlightGuard; }
        public Integer getPoolSize() { return poolSize; }
        public void setPoolSize(Integer poolSize) { this.poolSize = poolSize; }
    }

    /** The procedure-level circuit breaker (docs/operations.md#when-phala-cloud-is-down). */
    public static class PhalaOutage {
        /** Calls after the first one that failed wait this long before one tries Phala again; doubling from here. */
        @NotNull
        private Duration firstWait = Duration.ofSeconds(5);
        /** The longest wait between two tries. */
        @NotNull
        private Duration maxWait = Duration.ofSeconds(30);

        public Duration getFirstWait() { return firstWait; }
        public void setFirstWait(Duration firstWait) { this.firstWait = firstWait; }
        public Duration getMaxWait() { return maxWait; }
        public void setMaxWait(Duration maxWait) { this.maxWait = maxWait; }
    }

    /** The API's and fleet page's reads of Phala (docs/operations.md#fleet-page-reads). */
    public static class FleetReads {
        /** A set's detail is read from Phala at most this often per node, whoever asks; in between from the registry. */
        @NotNull
        private Duration maxAge = Duration.ofSeconds(5);

        public Duration getMaxAge() { return maxAge; }
        public void setMaxAge(Duration maxAge) { this.maxAge = maxAge; }
    }
}
