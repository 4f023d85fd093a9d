package com.statefulcvm.delegates.procedure;

/** Names of failover.bpmn, its variables and results, shared by delegates, REST and tests. */
public final class FailoverVariables extends ProcedureVariables {

    public static final String PROCESS_KEY = "failover";

    // --- in (business key: the set's name)
    /** Why the failover was asked for, in words. */
    public static final String FAILOVER_REASON = "failoverReason";

    // --- set by "Check whether the leader is lost"
    /** NONE or ALWAYS (failover.approval). */
    public static final String FAILOVER_APPROVAL = "failoverApproval";
    /** ISO-8601 durations for the diagram's timers. */
    public static final String LEADER_POLL_INTERVAL = "leaderPollInterval";
    public static final String VERIFY_TIMEOUT = "verifyTimeout";
    /** What the last check found: see {@link Verdict}. */
    public static final String LEADER_VERDICT = "leaderVerdict";
    /** The member (= slot) that held leadership when it was lost; null when no one can tell. */
    public static final String OLD_LEADER = "oldLeader";
    /** When the workload's own election has had its grace (ISO instant), from the first check that found it lost. */
    public static final String GRACE_UNTIL = "graceUntil";
    public static final String AUTO_FAILOVER_PAUSED = "autoFailoverPaused";

    // --- set by "Choose the replica with the most recent data"
    public static final String CANDIDATE = "failoverCandidate";
    public static final String CANDIDATE_REASON = "candidateReason";
    /** member → its WAL position (received, else replayed) as PostgreSQL writes it, as the choice saw them. */
    public static final String REPLICA_LSNS = "replicaLsns";
    public static final String CANDIDATE_LSN = "candidateLsn";

    // --- set by the promotion, the fence and the verification
    public static final String FAILOVER_REQUESTED = "failoverRequested";
    public static final String PROMOTION_ANSWER = "promotionAnswer";
    public static final String FENCE_REQUESTED = "fenceRequested";
    public static final String OLD_LEADER_FENCED = "oldLeaderFenced";
    public static final String NEW_LEADER_VERIFIED = "newLeaderVerified";
    public static final String NEW_LEADER = "newLeader";

    // --- the end
    /** How the failover ended: see {@link Result}. */
    public static final String FAILOVER_RESULT = "failoverResult";

    /** The BPMN error of a promotion the workload refused outright (Patroni 412, 400). */
    public static final String PROMOTION_REFUSED = "PROMOTION_REFUSED";
    /** The BPMN error of a promotion not sent because a leader answers again. */
    public static final String LEADER_BACK = "LEADER_BACK";

    /** What "Check whether the leader is lost" found. */
    public enum Verdict {
        /** The leader answers and leads: nothing to do. */
        HEALTHY,
        /** It was lost at an earlier check, and now a leader answers and leads: the workload elected one itself. */
        RECOVERED,
        /** Lost, within the grace the workload has to elect a leader itself: check again. */
        WAITING,
        /** Lost, the grace is over (or automatic failover is paused): fail over. */
        LOST,
        /** This procedure cannot fail this set over (its workload type). */
        REFUSED
    }

    /** The values of {@link #FAILOVER_RESULT}, as the diagram's last gateway reads them. */
    public static final class Result {
        public static final String NOT_NEEDED = "not-needed";
        public static final String RECOVERED = "recovered";
        public static final String REFUSED = "refused";
        public static final String NO_CANDIDATE = "no-candidate";
        public static final String REJECTED = "rejected";
        public static final String PROMOTION_REFUSED = "promotion-refused";
        public static final String NOT_CONFIRMED = "not-confirmed";
        public static final String FAILED_OVER = "failed-over";

        private Result() {
        }
    }

    private FailoverVariables() {
    }
}
