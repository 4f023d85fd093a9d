package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.rollout.RolloutAction;

import java.util.Objects;
import java.util.Optional;

/**
 * The decisions that keep a rollout step safe to run again, apart from their effects (as Kubernetes' StatefulSet
 * controller compares what it observes with what it wants and only then acts): from a {@link SlotState} the step
 * read, what it is to do now. Pure: it asks nothing, writes nothing and reads no clock; the steps
 * ({@link ApplyPlannedAction}, {@link AwaitCvmRunning}) carry the decision out, every call to Phala through its
 * committed intent, so a re-run that finds its work done or under way decides "nothing more" here.
 */
public final class SlotReconciler {

    /** What "Apply the planned action" does to the slot. */
    public enum Apply {
        /** ADD_SURGE: create the slot's new CVM (unless one of that name exists). */
        CREATE_SURGE,
        /** REFRESH: nothing is changed; the CVM is re-attested and recorded on the target. */
        REFRESH_ONLY,
        /** NONE, REMOVE_SURGE: not an instance update; the step refuses. */
        NOT_AN_UPDATE,
        /** RESTART of a slot without a CVM: heal or scale creates it, the step refuses. */
        NO_CVM_TO_UPDATE,
        /** The CVM lacks the target compose: the compose update is the slot's update (an env change follows later). */
        UPDATE_COMPOSE,
        /** The CVM has the target and the env change is still to ask: the env update restarts it. */
        UPDATE_ENV,
        /** The env update was asked already: no restart on top of it. */
        ENV_ALREADY_REQUESTED,
        /** A restart or start was asked already: look at it again (asked once more only if Phala shows it did not take). */
        LOOK_AT_RESTART_AGAIN,
        /** The CVM is busy: wait for it to settle. */
        WAIT_TO_SETTLE,
        /** The CVM runs the target compose an earlier attempt's update put there: that update was the restart. */
        ALREADY_UPDATED,
        /** Restart the running CVM on its unchanged compose. */
        RESTART,
        /** Start the stopped CVM (Phala refuses to restart it): it crashed with the target and only needs to run. */
        START,
        /** REPLACE and the old CVM is gone: the new one is created next. */
        OLD_CVM_GONE,
        /** REPLACE and the slot's CVM is already another instance than the planned one. */
        ALREADY_REPLACED,
        /** REPLACE: delete the planned instance. */
        DELETE_OLD_CVM
    }

    /** What "Check the CVM is running and settled" does about the slot. */
    public enum Await {
        /** No CVM, and a replacement or a surge fills the slot: create it. */
        CREATE,
        /** No CVM, and nothing of this rollout creates one: wait (the progress deadline hands it to the operator). */
        WAIT_FOR_A_CVM,
        /** REPLACE and the planned instance is still there: delete it. */
        DELETE_OLD_CVM,
        /** Settled on the target compose with the env change still to ask: ask for it. */
        UPDATE_ENV,
        /** Running on the target, its env update's outcome unknown: look at it again. */
        LOOK_AT_ENV_UPDATE_AGAIN,
        /** Running on the target, its restart's outcome unknown: look at it again (not running again yet). */
        LOOK_AT_RESTART_AGAIN,
        /** Running and settled on the target with nothing outstanding: ready for attestation and health. */
        RUNNING,
        /** Settled without the target compose: ask for it (once per attempt). */
        UPDATE_COMPOSE,
        /** Busy or not running: wait. */
        WAIT
    }

    private SlotReconciler() {
    }

    /**
     * True when applying would take a running slot down for the first time in this attempt (a restart or a
     * replacement): the set's live disruption budget must have room first. A re-run of an attempt that already asked
     * Phala is not judged again: its effect is under way and is read back, never made twice.
     */
    public static boolean takesRunningSlotDown(SlotState state) {
        boolean takesDown = state.action() == RolloutAction.RESTART || state.action() == RolloutAction.REPLACE;
        return takesDown && state.cvm().filter(CvmInfo::isRunning).isPresent() && !state.asked().anything();
    }

    public static Apply apply(SlotState state) {
        return switch (state.action()) {
            case ADD_SURGE -> Apply.CREATE_SURGE;
            case REFRESH -> Apply.REFRESH_ONLY;
            case RESTART -> state.cvm().map(cvm -> restart(state, cvm)).orElse(Apply.NO_CVM_TO_UPDATE);
            case REPLACE -> replace(state);
            case NONE, REMOVE_SURGE -> Apply.NOT_AN_UPDATE;
        };
    }

    private static Apply restart(SlotState state, CvmInfo cvm) {
        SlotState.Asked asked = state.asked();
        if (!state.hasTarget()) {
            return Apply.UPDATE_COMPOSE;
        }
        if (asked.envPending()) {
            return Apply.UPDATE_ENV;
        }
        if (asked.envRequested()) {
            return Apply.ENV_ALREADY_REQUESTED;
        }
        if (asked.restart()) {
            return Apply.LOOK_AT_RESTART_AGAIN;
        }
        if (!cvm.isSettled()) {
            return Apply.WAIT_TO_SETTLE;
        }
        if (cvm.isRunning() && state.composeChangePlanned()) {
            // an earlier attempt at the slot (the operator retried it since) requested the update the plan moves it by,
            // and the CVM runs it: that update was the restart; another one would take the instance down a second time
            return Apply.ALREADY_UPDATED;
        }
        return cvm.isRunning() ? Apply.RESTART : Apply.START;
    }

    private static Apply replace(SlotState state) {
        Optional<CvmInfo> cvm = state.cvm();
        if (cvm.isEmpty()) {
            return Apply.OLD_CVM_GONE;
        }
        String planned = state.boundInstanceId();
        if (planned != null && !Objects.equals(planned, cvm.get().instanceId())) {
            return Apply.ALREADY_REPLACED;
        }
        return Apply.DELETE_OLD_CVM;
    }

    public static Await await(SlotState state) {
        if (state.cvm().isEmpty()) {
            return state.action() == RolloutAction.ADD_SURGE || state.action() == RolloutAction.REPLACE
                    ? Await.CREATE : Await.WAIT_FOR_A_CVM;
        }
        CvmInfo cvm = state.cvm().get();
        SlotState.Asked asked = state.asked();
        boolean settledOnTarget = cvm.isSettled() && state.hasTarget();
        boolean runsTarget = cvm.isRunning() && settledOnTarget;
        String planned = state.boundInstanceId();
        if (state.action() == RolloutAction.REPLACE && planned != null && Objects.equals(planned, cvm.instanceId())) {
            return Await.DELETE_OLD_CVM;
        }
        if (settledOnTarget && asked.envPending()) {
            // an env rollout's env goes in once the CVM has the compose: a new CVM, or one that took a compose change first
            return Await.UPDATE_ENV;
        }
        if (runsTarget && asked.envUnfinished()) {
            return Await.LOOK_AT_ENV_UPDATE_AGAIN;
        }
        if (runsTarget && asked.restartUnfinished()) {
            return Await.LOOK_AT_RESTART_AGAIN;
        }
        if (runsTarget) {
            return Await.RUNNING;
        }
        if (cvm.isSettled() && !state.hasTarget()) {
            return Await.UPDATE_COMPOSE;
        }
        return Await.WAIT;
    }
}
