package com.statefulcvm.fleet.lightsout;


import java.util.ArrayList;
import java.util.List;

/**
 * How a replica set comes back after every replica went down ({@code lights-out} in the fleet file,
 * lights-out-recovery.bpmn): whether an operator approves the seed the procedure chose, how long each replica has to
 * answer its sequence number, how long the seed has to become healthy and attested, and, for a workload type without
 * a procedure of its own (sequence-generic), the HTTP endpoint of the compose that answers the replica's sequence
 * number. Mutable so that Spring Boot can bind it; {@link #problems} decides what makes sense.
 */
public class LightsOut {

    /** An operator confirms (or overrides) the seed in Tasklist before anything is seeded. */
    private boolean approval = true;
    /** Each replica's sequence-&lt;type&gt; procedure must answer within this long, or the replica is reported as unanswered. */
    private int sequenceTimeoutSeconds = 120;
    /** The seed must run, pass attestation and its health gate within this long; each follower too. */
    private int seedTimeoutSeconds = 600;
    /** sequence-generic: the port of the compose's endpoint; null: the health check's port. */
    private Integer sequencePort;
    /** sequence-generic: the path of the compose's endpoint, answering the replica's sequence number as an integer. */
    private String sequencePath = "/sequence";
    /**
     * The path of the compose's release endpoint on the sequence port: a compose that holds its workload back answers
     * {@code POST <path>} by letting it start (the seed first, then each follower). Unset: the workload type's default
     * (Patroni and etcd are held back by the shipped hold-back agent: {@value #AGENT_RELEASE_PATH} on port {@value #AGENT_PORT});
     * {@value #NONE}: not held back.
     */
    private String releasePath;

    /** The shipped hold-back agent's (config/compose/holdback-agent.py) defaults. */
    public static final String AGENT_RELEASE_PATH = "/release";
    public static final int AGENT_PORT = 9000;
    /** {@code release-path: none}: the set's compose does not hold its workload back. */
    public static final String NONE = "none";

    /** Every problem as {@code lightsOut.<field>: problem}. */
    public static List<String> problems(LightsOut lightsOut) {
        List<String> problems = new ArrayList<>();
        if (lightsOut == null) {
            problems.add("lightsOut: is required");
            return problems;
        }
        if (lightsOut.sequenceTimeoutSeconds < 1) {
            problems.add("lightsOut.sequenceTimeoutSeconds: must be at least 1 (was " + lightsOut.sequenceTimeoutSeconds + ")");
        }
        if (lightsOut.seedTimeoutSeconds < 1) {
            problems.add("lightsOut.seedTimeoutSeconds: must be at least 1 (was " + lightsOut.seedTimeoutSeconds + ")");
        }
        if (lightsOut.sequencePort != null && (lightsOut.sequencePort < 1 || lightsOut.sequencePort > 65535)) {
            problems.add("lightsOut.sequencePort: must be a port from 1 to 65535 (was " + lightsOut.sequencePort + ")");
        }
        if (lightsOut.sequencePath == null || !lightsOut.sequencePath.startsWith("/") || lightsOut.sequencePath.contains(" ")) {
            problems.add("lightsOut.sequencePath: must be a path starting with / and without spaces (was '" + lightsOut.sequencePath + "')");
        }
        if (lightsOut.releasePath != null && !NONE.equals(lightsOut.releasePath)
                && (!lightsOut.releasePath.startsWith("/") || lightsOut.releasePath.contains(" "))) {
            problems.add("lightsOut.releasePath: must be a path starting with / and without spaces, or none (was '"
                    + lightsOut.releasePath + "')");
        }
        return problems;
    }

    /** Whether the compose's release path is set explicitly (not the workload type's default). */
    public boolean holdsBack() {
        return releasePath != null && !releasePath.isBlank() && !NONE.equals(releasePath);
    }

    /**
     * The release path for a set of a workload type that holds back or not: the explicit one; unset, the shipped
     * hold-back agent's for a type held back by its descriptor (a store that elects a leader by itself, Patroni and etcd, must not start its
     * workload before the seed is chosen); null when the workload is not held back.
     */
    public String releasePathFor(boolean typeHoldsBack) {
        if (releasePath == null || releasePath.isBlank()) {
            return typeHoldsBack ? AGENT_RELEASE_PATH : null;
        }
        return NONE.equals(releasePath) ? null : releasePath;
    }

    public boolean holdsBack(boolean typeHoldsBack) {
        return releasePathFor(typeHoldsBack) != null;
    }

    /** The port of the generic sequence endpoint: the explicit one, else the health check's. */
    public int sequencePortOr(int healthCheckPort) {
        return sequencePort != null ? sequencePort : healthCheckPort;
    }

    /**
     * The port of the sequence and release endpoints for a set of this workload type: the explicit one; unset, the hold-back
     * agent's when the type is held back and the release path is not set, else the health check's.
     */
    public int sequencePortFor(boolean typeHoldsBack, int healthCheckPort) {
        if (sequencePort != null) {
            return sequencePort;
        }
        return (releasePath == null || releasePath.isBlank()) && typeHoldsBack ? AGENT_PORT : healthCheckPort;
    }

    public boolean isApproval() { return approval; }
    public void setApproval(boolean approval) { this.approval = approval; }
    public int getSequenceTimeoutSeconds() { return sequenceTimeoutSeconds; }
    public void setSequenceTimeoutSeconds(int sequenceTimeoutSeconds) { this.sequenceTimeoutSeconds = sequenceTimeoutSeconds; }
    public int getSeedTimeoutSeconds() { return seedTimeoutSeconds; }
    public void setSeedTimeoutSeconds(int seedTimeoutSeconds) { this.seedTimeoutSeconds = seedTimeoutSeconds; }
    public Integer getSequencePort() { return sequencePort; }
    public void setSequencePort(Integer sequencePort) { this.sequencePort = sequencePort; }
    public String getSequencePath() { return sequencePath; }
    public void setSequencePath(String sequencePath) { this.sequencePath = sequencePath; }
    public String getReleasePath() { return releasePath; }
    public void setReleasePath(String releasePath) { this.releasePath = releasePath; }
}
