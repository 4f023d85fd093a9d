package com.statefulcvm.simulator;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Settings of the simulator ({@code simulator.*}). The class validates itself (Spring Boot calls
 * {@link #validate} after binding), so no Bean Validation provider is needed on the host's classpath.
 */
@ConfigurationProperties("simulator")
public class SimulatorProperties implements Validator {

    /** Serve the simulated Phala Cloud (API, gateway, admin) in this application. */
    private boolean enabled;

    /** When set, API calls must carry exactly this value in {@code X-API-Key}; when unset any non-empty key passes. */
    private String apiKey;

    /** The {@code gateway.base_domain} reported for every CVM. */
    private String gatewayBaseDomain = "sim.phala.local";

    /** When set, the whole state is saved to this JSON file after each change and loaded at start. */
    private Path stateFile;

    /**
     * When set, every API call is appended to this file as a JSON line (method, path, contract headers, body, status):
     * what the SDK contract test checks.
     */
    private Path requestJournal;

    private final Timings timings = new Timings();

    /**
     * The workspace's quotas at start and after the admin reset (a real workspace's are its plan's): a benchmark's
     * fleet of thousands of CVMs raises them. The admin API changes them at run time.
     */
    private final Quota quota = new Quota();

    /**
     * Tests only: when set, the simulated attestation root CA's key is derived from this text, so that several
     * simulators started with the same seed (a standalone one, and the embedded one whose root an orchestrator node
     * trusts) share one trust anchor. Unset (the default), the key is new at every start.
     */
    private String authoritySeed;

    /**
     * Simulated CVMs backed by real local processes, by CVM name: the lifecycle runs the backend's commands and the
     * gateway proxies the mapped ports to the process ({@code com.statefulcvm.simulator.backend.ProcessBackends}).
     */
    private final Map<String, Backend> backends = new LinkedHashMap<>();

    public Path getRequestJournal() {
        return requestJournal;
    }

    public void setRequestJournal(Path requestJournal) {
        this.requestJournal = requestJournal;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getApiKey() {
        return apiKey;
    }

    public void setApiKey(String apiKey) {
        this.apiKey = apiKey;
    }

    /** The configured key, or null when none (blank counts as none). */
    public String requiredApiKey() {
        return apiKey == null || apiKey.isBlank() ? null : apiKey;
    }

    public String getGatewayBaseDomain() {
        return gatewayBaseDomain;
    }

    public void setGatewayBaseDomain(String gatewayBaseDomain) {
        this.gatewayBaseDomain = gatewayBaseDomain;
    }

    public Path getStateFile() {
        return stateFile;
    }

    public void setStateFile(Path stateFile) {
        this.stateFile = stateFile;
    }

    public Quota getQuota() {
        return quota;
    }

    public Timings getTimings() {
        return timings;
    }

    public String getAuthoritySeed() {
        return authoritySeed;
    }

    public void setAuthoritySeed(String authoritySeed) {
        this.authoritySeed = authoritySeed;
    }

    public Map<String, Backend> getBackends() {
        return backends;
    }

    @Override
    public boolean supports(Class<?> clazz) {
        return SimulatorProperties.class.isAssignableFrom(clazz);
    }

    @Override
    public void validate(Object target, Errors errors) {
        SimulatorProperties properties = (SimulatorProperties) target;
        if (properties.gatewayBaseDomain == null || properties.gatewayBaseDomain.isBlank()) {
            errors.reject("simulator.gatewayBaseDomain", "simulator.gateway-base-domain must not be blank");
        }
        properties.timings.asMap().forEach((name, value) -> {
            if (value < 0) {
                errors.reject("simulator.timings", "simulator.timings." + name + " must be >= 0 but was " + value);
            }
        });
        properties.backends.forEach((cvm, backend) -> backend.validate("simulator.backends." + cvm, errors));
    }

    /**
     * A real local process behind one simulated CVM. The commands run with {@code /bin/sh -c} in
     * {@link #workingDirectory} (the simulator's own when unset), one at a time per CVM, each within
     * {@link #commandTimeout}; any of them may be left out (nothing is run). {@link #ports} maps a port of the CVM's
     * gateway routes ({@code {instanceId}-{port}}) to a port on 127.0.0.1.
     */
    public static class Backend {
        /** Run when the CVM enters {@code running} (created, started, restarted, updated). */
        private String start;
        /** Run when the CVM leaves {@code running} (stop, shutdown, restart, update, redeploy, delete). */
        private String stop;
        /** Run when the CVM crashes (admin crash); {@link #stop} when unset. */
        private String kill;
        /** Run when the CVM is deleted, after {@link #stop}: its disk is gone (nothing is run when unset). */
        private String delete;
        /** CVM port to local port on 127.0.0.1. */
        private Map<Integer, Integer> ports = new LinkedHashMap<>();
        private Path workingDirectory;
        private Duration commandTimeout = Duration.ofSeconds(60);
        /** How long a proxied gateway request may take. */
        private Duration requestTimeout = Duration.ofSeconds(30);

        public String getStart() {
            return start;
        }

        public void setStart(String start) {
            this.start = start;
        }

        public String getStop() {
            return stop;
        }

        public void setStop(String stop) {
            this.stop = stop;
        }

        public String getKill() {
            return kill;
        }

        public void setKill(String kill) {
            this.kill = kill;
        }

        public String getDelete() {
            return delete;
        }

        public void setDelete(String delete) {
            this.delete = delete;
        }

        public Map<Integer, Integer> getPorts() {
            return ports;
        }

        public void setPorts(Map<Integer, Integer> ports) {
            this.ports = ports == null ? new LinkedHashMap<>() : ports;
        }

        public Path getWorkingDirectory() {
            return workingDirectory;
        }

        public void setWorkingDirectory(Path workingDirectory) {
            this.workingDirectory = workingDirectory;
        }

        public Duration getCommandTimeout() {
            return commandTimeout;
        }

        public void setCommandTimeout(Duration commandTimeout) {
            this.commandTimeout = commandTimeout;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        void validate(String prefix, Errors errors) {
            ports.forEach((from, to) -> {
                if (from == null || from < 1 || from > 65535 || to == null || to < 1 || to > 65535) {
                    errors.reject("simulator.backends", prefix + ".ports: " + from + " -> " + to
                            + " is not a pair of ports from 1 to 65535");
                }
            });
            if (commandTimeout == null || commandTimeout.isNegative() || commandTimeout.isZero()) {
                errors.reject("simulator.backends", prefix + ".command-timeout must be positive");
            }
            if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
                errors.reject("simulator.backends", prefix + ".request-timeout must be positive");
            }
        }
    }

    /** Durations of the asynchronous transitions, in milliseconds. Mutable at run time (admin endpoint). */
    /** {@code simulator.quota.*}: the SDK's {@code getWorkspaceQuotas} limits. */
    public static class Quota {
        private int vmSlots = 100;
        private int vcpu = 400;
        private int memoryMb = 800 * 1024;
        private int diskGb = 20_000;

        public int getVmSlots() {
            return vmSlots;
        }

        public void setVmSlots(int vmSlots) {
            this.vmSlots = vmSlots;
        }

        public int getVcpu() {
            return vcpu;
        }

        public void setVcpu(int vcpu) {
            this.vcpu = vcpu;
        }

        public int getMemoryMb() {
            return memoryMb;
        }

        public void setMemoryMb(int memoryMb) {
            this.memoryMb = memoryMb;
        }

        public int getDiskGb() {
            return diskGb;
        }

        public void setDiskGb(int diskGb) {
            this.diskGb = diskGb;
        }
    }

    public static class Timings {
        private volatile long createMs = 3000;
        private volatile long startMs = 1500;
        private volatile long stopMs = 1000;
        private volatile long shutdownMs = 1500;
        private volatile long restartMs = 2000;
        private volatile long updateMs = 3000;
        private volatile long deleteMs = 1000;

        public long getCreateMs() {
            return createMs;
        }

        public void setCreateMs(long createMs) {
            this.createMs = createMs;
        }

        public long getStartMs() {
            return startMs;
        }

        public void setStartMs(long startMs) {
            this.startMs = startMs;
        }

        public long getStopMs() {
            return stopMs;
        }

        public void setStopMs(long stopMs) {
            this.stopMs = stopMs;
        }

        public long getShutdownMs() {
            return shutdownMs;
        }

        public void setShutdownMs(long shutdownMs) {
            this.shutdownMs = shutdownMs;
        }

        public long getRestartMs() {
            return restartMs;
        }

        public void setRestartMs(long restartMs) {
            this.restartMs = restartMs;
        }

        public long getUpdateMs() {
            return updateMs;
        }

        public void setUpdateMs(long updateMs) {
            this.updateMs = updateMs;
        }

        public long getDeleteMs() {
            return deleteMs;
        }

        public void setDeleteMs(long deleteMs) {
            this.deleteMs = deleteMs;
        }

        /** The timings by property name, in a fixed order. */
        public Map<String, Long> asMap() {
            Map<String, Long> map = new LinkedHashMap<>();
            map.put("createMs", createMs);
            map.put("startMs", startMs);
            map.put("stopMs", stopMs);
            map.put("shutdownMs", shutdownMs);
            map.put("restartMs", restartMs);
            map.put("updateMs", updateMs);
            map.put("deleteMs", deleteMs);
            return map;
        }
    }
}
