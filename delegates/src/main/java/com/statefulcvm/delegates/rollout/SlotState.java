package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.rollout.RolloutAction;

import java.util.Optional;

/**
 * What a rollout step knows of its slot when it runs ({@link SlotStateReader}), all that {@link SlotReconciler}
 * decides from: the plan's action for the slot, the slot's CVM as Phala shows it now, and what this attempt at the
 * slot has asked Phala for already. The step's job may be a re-run (after a crash, a kill -9, a takeover), so the
 * decision never trusts a flag the step wrote itself, only Phala and the attempt's committed intents.
 *
 * @param boundInstanceId      the instance_id the slot had when planned (a replacement deletes exactly that CVM); null without one
 * @param composeChangePlanned the slot's compose differed from the target when the rollout was planned, so its planned
 *                             RESTART is the compose update itself
 */
public record SlotState(ReplicaSetSpec spec, String slot, RolloutAction action, String targetCompose, Optional<CvmInfo> cvm,
                        String boundInstanceId, boolean composeChangePlanned, EffectScope scope, Asked asked) {

    /**
     * What this attempt at the slot has asked Phala for, read from its intents (a refused request counts as not asked).
     *
     * @param anything          any effect at all: the effect of a re-run is already on its way
     * @param envPending        the rollout carries an env change the slot's action still has to ask for
     * @param envRequested      the env update was asked for
     * @param envUnfinished     the env update was asked for and nobody knows yet whether Phala took it
     * @param restart           a restart or start was asked for
     * @param restartUnfinished a restart or start was asked for and nobody knows yet whether Phala took it
     */
    public record Asked(boolean anything, boolean envPending, boolean envRequested, boolean envUnfinished,
                        boolean restart, boolean restartUnfinished) {

        public static final Asked NOTHING = new Asked(false, false, false, false, false, false);
    }

    /** The slot's CVM, for a decision that needs one. */
    public CvmInfo found() {
        return cvm.orElseThrow(() -> new IllegalStateException("slot " + slot + " has no CVM"));
    }

    /** True when the slot has a CVM and it carries the target compose. */
    public boolean hasTarget() {
        return cvm.filter(c -> ComposeText.same(c.dockerCompose(), targetCompose)).isPresent();
    }
}
