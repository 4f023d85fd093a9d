package com.statefulcvm.web.config;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code orchestrator.healing}: the health monitors of this deployment (each set's own settings are its
 * {@code autoHealing} and {@code healthCheck} in the fleet file). See docs/healing.md.
 */
@Validated
@ConfigurationProperties("orchestrator.healing")
public class HealingProperties {

    /** Run a health monitor for every set whose autoHealing is enabled. */
    private boolean enabled = true;
    /**
     * How long a node's hold on a set's monitor lasts without renewal: a node that dies leaves its sets to the others
     * after at most this long. Renewed every third of it.
     */
    @NotNull
    private Duration lease = Duration.ofSeconds(15);
    /** How often the scheduler looks for rounds that are due: the most a round starts late when the node keeps up. */
    @NotNull
    private Duration tick = Duration.ofMillis(250);
    /** Threads that read, judge and write rounds (the probes themselves hold no thread while they wait). */
    @Min(1)
    private int roundThreads = 4;
    /** At most this many health probes in flight at once on this node, over all sets. */
    @Min(1)
    private int maxConcurrentProbes = 64;
    /** At most this many CVMs per {@code POST /status/batch}. */
    @Min(1)
    private int statusBatchSize = 100;
    /**
     * Every this many rounds a set's CVMs are listed even when the status batch shows nothing new; in between, a set
     * whose CVMs all answer the batch as last seen costs no call of its own.
     */
    @Min(1)
    private int fullListEvery = 6;
    /** This node's name in the leases; empty: the host name and a random suffix, new at every start. */
    private String nodeId = "";

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public Duration getLease() { return lease; }
    public void setLease(Duration lease) { this.lease = lease; }
    public Duration getTick() { return tick; }
    public void setTick(Duration tick) { this.tick = tick; }
    public int getRoundThreads() { return roundThreads; }
    public void setRoundThreads(int roundThreads) { this.roundThreads = roundThreads; }
    public int getMaxConcurrentProbes() { return maxConcurrentProbes; }
    public void setMaxConcurrentProbes(int maxConcurrentProbes) { this.maxConcurrentProbes = maxConcurrentProbes; }
    public int getStatusBatchSize() { return statusBatchSize; }
    public void setStatusBatchSize(int statusBatchSize) { this.statusBatchSize = statusBatchSize; }
    public int getFullListEvery() { return fullListEvery; }
    public void setFullListEvery(int fullListEvery) { this.fullListEvery = fullListEvery; }
    public String getNodeId() { return nodeId; }
    public void setNodeId(String nodeId) { this.nodeId = nodeId; }
}
