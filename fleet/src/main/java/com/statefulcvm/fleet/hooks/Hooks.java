package com.statefulcvm.fleet.hooks;


/**
 * How a replica set's drain and rejoin procedures ({@code drain-<workloadType>.bpmn}, {@code rejoin-<workloadType>.bpmn})
 * are run. Mutable so that Spring Boot can bind it.
 */
public class Hooks {

    private int timeoutSeconds = 300;
    private HookResult defaultResult = HookResult.ABANDON;
    /** The workload's admin API port (Patroni REST, etcd client, Consul HTTP); 0 means the workload type's own. */
    private int adminPort = 0;
    /** A rejoining Patroni replica must stream with at most this much lag (bytes). */
    private long maxLagBytes = 1024 * 1024;
    /** generic: an optional HTTP endpoint in the CVM, POSTed before it is stopped ({@code port} 0: none). */
    private PreStop preStop = new PreStop();

    /** @param typePort the workload type's admin port ({@code ReplicaSetSpec#adminPort}) */
    public int adminPortOr(int typePort) {
        return adminPort > 0 ? adminPort : typePort;
    }

    /**
     * Whether drain-&lt;workloadType&gt; does anything for this set: its type drains, or the set has a pre-stop endpoint
     * (drain-generic only POSTs it). Otherwise the procedures skip the call (its jobs and call activities cost about
     * 20 to 70 ms per instance).
     */
    public boolean drainDoesWork(boolean typeDrains) {
        return typeDrains || preStop.isSet();
    }

    public int getTimeoutSeconds() { return timeoutSeconds; }
    public void setTimeoutSeconds(int timeoutSeconds) { this.timeoutSeconds = timeoutSeconds; }
    public HookResult getDefaultResult() { return defaultResult; }
    public void setDefaultResult(HookResult defaultResult) { this.defaultResult = defaultResult; }
    public int getAdminPort() { return adminPort; }
    public void setAdminPort(int adminPort) { this.adminPort = adminPort; }
    public long getMaxLagBytes() { return maxLagBytes; }
    public void setMaxLagBytes(long maxLagBytes) { this.maxLagBytes = maxLagBytes; }
    public PreStop getPreStop() { return preStop; }
    public void setPreStop(PreStop preStop) { this.preStop = preStop; }

    public static class PreStop {
        private int port = 0;
        private String path = "/pre-stop";

        public boolean isSet() {
            return port > 0;
        }

        public int getPort() { return port; }
        public void setPort(int port) { this.port = port; }
        public String getPath() { return path; }
        public void setPath(String path) { this.path = path; }
    }
}
