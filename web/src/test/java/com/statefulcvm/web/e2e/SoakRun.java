package com.statefulcvm.web.e2e;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** One rollout of the soak: what it was given, what the operator (the test) met and decided, how it ended. */
final class SoakRun {

    /** What is done to a rollout besides the background faults. */
    enum Scenario {
        /** Nothing aimed at it. */
        CLEAN,
        /** 503, 429 with Retry-After and 409 on its PATCHes and GETs, each within the client's own attempts. */
        TRANSIENT,
        /** A PATCH held past the client's read timeout (the update is made all the same) and a GET likewise. */
        TIMEOUT,
        /** Its second CVM crashes while updating; a short progress deadline hands the slot to the operator. */
        CRASH,
        /** Its first CVM never gets healthy; a short progress deadline halts the rollout there. */
        DEADLINE
    }

    /** An operator task met during the rollout, with its reason and the test's decision. */
    record Halt(String taskDefinitionKey, String taskName, String slot, String reason, String decision) {
    }

    final String set;
    final int index;
    final Scenario scenario;
    final String compose;
    final Map<String, Object> override;
    /** DEADLINE only: whether the operator aborts at the halt (else heals the instance and retries). */
    final boolean abortAtHalt;
    final List<Halt> halts = new CopyOnWriteArrayList<>();

    volatile String processInstanceId;
    volatile long journalSeqAtStart;
    volatile boolean secondStartRefused;
    /** CRASH: the CVM to crash once it is seen updating; null once crashed (or for other scenarios). */
    volatile String crashPending;
    volatile String crashed;
    /** DEADLINE: the CVM made unhealthy before the start; healed at the halt or when the rollout ended. */
    volatile String unhealthy;
    volatile String endActivity;

    SoakRun(String set, int index, Scenario scenario, String compose, Map<String, Object> override, boolean abortAtHalt) {
        this.set = set;
        this.index = index;
        this.scenario = scenario;
        this.compose = compose;
        this.override = override;
        this.abortAtHalt = abortAtHalt;
    }

    boolean completed() {
        return "EndEvent_RolloutCompleted".equals(endActivity);
    }

    boolean aborted() {
        return "EndEvent_RolloutAborted".equals(endActivity);
    }

    /** Whether the operator means to abort this rollout (a DEADLINE run on an odd set): every other one is to complete. */
    boolean abortIntended() {
        return scenario == Scenario.DEADLINE && abortAtHalt;
    }

    String name() {
        return set + " #" + index + " (" + scenario + ")";
    }

    @Override
    public String toString() {
        return name() + " " + processInstanceId + " -> " + endActivity + ", halts " + halts;
    }
}
