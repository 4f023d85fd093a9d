package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.delegates.rollout.SlotReconciler.Apply;
import com.statefulcvm.delegates.rollout.SlotReconciler.Await;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every branch of the decisions that keep a rollout step safe to run again: each test names the state a step can find
 * its slot in (often on a re-run: after a crash, a kill -9, a takeover, an operator's retry) and what it decides.
 */
class SlotReconcilerTest {

    private static final String TARGET = "services:\n  web:\n    image: b\n";
    private static final String OLD = "services:\n  web:\n    image: a\n";
    private static final String PLANNED_INSTANCE = "instance-planned";

    /** The slot as a step reads it; each test changes what its branch is about. */
    private static final class Slot {
        RolloutAction action = RolloutAction.RESTART;
        CvmInfo cvm = cvm("running", false, TARGET, PLANNED_INSTANCE);
        String boundInstanceId = PLANNED_INSTANCE;
        boolean composeChangePlanned;
        boolean askedAnything;
        boolean envPending;
        boolean envRequested;
        boolean envUnfinished;
        boolean restartAsked;
        boolean restartUnfinished;

        Slot action(RolloutAction action) {
            this.action = action;
            return this;
        }

        Slot cvm(String status, boolean inProgress, String compose) {
            this.cvm = cvm(status, inProgress, compose, PLANNED_INSTANCE);
            return this;
        }

        Slot noCvm() {
            this.cvm = null;
            return this;
        }

        SlotState state() {
            return new SlotState(null, "webdemo-1", action, TARGET, Optional.ofNullable(cvm), boundInstanceId, composeChangePlanned,
                    null, new SlotState.Asked(askedAnything, envPending, envRequested, envUnfinished, restartAsked, restartUnfinished));
        }

        Apply apply() {
            return SlotReconciler.apply(state());
        }

        Await await() {
            return SlotReconciler.await(state());
        }

        boolean takesRunningSlotDown() {
            return SlotReconciler.takesRunningSlotDown(state());
        }

        static CvmInfo cvm(String status, boolean inProgress, String compose, String instanceId) {
            return new CvmInfo("cvm_abc", "webdemo-1", "a".repeat(40), "uuid", instanceId, status, inProgress,
                    inProgress ? new Progress("running", null, "corr") : null, "hash", null, null, null, null, null, null, null,
                    null, null, null, null, new ComposeFile("webdemo", compose, null, null, null, null, null, null, null, null, null));
        }
    }

    private static Slot slot() {
        return new Slot();
    }

    // --- the live disruption budget: judged before the first take-down of an attempt only

    @Test
    void aRestartOfARunningCvmTakesItDown() {
        assertThat(slot().takesRunningSlotDown()).isTrue();
    }

    @Test
    void aReplacementOfARunningCvmTakesItDown() {
        assertThat(slot().action(RolloutAction.REPLACE).takesRunningSlotDown()).isTrue();
    }

    @Test
    void aRerunOfAnAttemptThatAskedPhalaAlreadyTakesNothingDownAnew() {
        Slot slot = slot();
        slot.askedAnything = true;
        assertThat(slot.takesRunningSlotDown()).isFalse();
    }

    @Test
    void aStoppedOrMissingCvmIsNotTakenDown() {
        assertThat(slot().cvm("stopped", false, TARGET).takesRunningSlotDown()).isFalse();
        assertThat(slot().noCvm().takesRunningSlotDown()).isFalse();
    }

    @Test
    void aSurgeOrARefreshTakesNothingDown() {
        assertThat(slot().action(RolloutAction.ADD_SURGE).takesRunningSlotDown()).isFalse();
        assertThat(slot().action(RolloutAction.REFRESH).takesRunningSlotDown()).isFalse();
    }

    // --- "Apply the planned action"

    @Test
    void aSurgeSlotIsCreated() {
        assertThat(slot().action(RolloutAction.ADD_SURGE).noCvm().apply()).isEqualTo(Apply.CREATE_SURGE);
    }

    @Test
    void aRefreshChangesNothing() {
        assertThat(slot().action(RolloutAction.REFRESH).apply()).isEqualTo(Apply.REFRESH_ONLY);
    }

    @Test
    void noneAndSurgeRemovalAreNoInstanceUpdate() {
        assertThat(slot().action(RolloutAction.NONE).apply()).isEqualTo(Apply.NOT_AN_UPDATE);
        assertThat(slot().action(RolloutAction.REMOVE_SURGE).apply()).isEqualTo(Apply.NOT_AN_UPDATE);
    }

    @Test
    void aRestartOfASlotWithoutACvmIsRefused() {
        assertThat(slot().noCvm().apply()).isEqualTo(Apply.NO_CVM_TO_UPDATE);
    }

    @Test
    void aCvmWithoutTheTargetGetsTheComposeFirstEvenWithAnEnvChange() {
        Slot slot = slot().cvm("running", false, OLD);
        slot.envPending = true;
        slot.restartAsked = true;
        assertThat(slot.apply()).isEqualTo(Apply.UPDATE_COMPOSE);
    }

    @Test
    void aCvmOnTheTargetWithAnEnvChangeStillToAskGetsTheEnvUpdate() {
        Slot slot = slot();
        slot.envPending = true;
        assertThat(slot.apply()).isEqualTo(Apply.UPDATE_ENV);
    }

    @Test
    void anEnvUpdateAskedAlreadyIsNotRestartedOnTop() {
        Slot slot = slot();
        slot.envRequested = true;
        slot.restartAsked = true;
        assertThat(slot.apply()).isEqualTo(Apply.ENV_ALREADY_REQUESTED);
    }

    @Test
    void aRestartAskedAlreadyIsLookedAtAgainEvenWhileTheCvmIsBusy() {
        Slot slot = slot().cvm("restarting", true, TARGET);
        slot.restartAsked = true;
        assertThat(slot.apply()).isEqualTo(Apply.LOOK_AT_RESTART_AGAIN);
    }

    @Test
    void aBusyCvmIsWaitedFor() {
        assertThat(slot().cvm("restarting", true, TARGET).apply()).isEqualTo(Apply.WAIT_TO_SETTLE);
    }

    @Test
    void aCvmRunningTheComposeAnEarlierAttemptPutThereIsNotRestartedAgain() {
        Slot slot = slot();
        slot.composeChangePlanned = true;
        assertThat(slot.apply()).isEqualTo(Apply.ALREADY_UPDATED);
    }

    @Test
    void aRunningCvmOnAnUnchangedComposeIsRestarted() {
        assertThat(slot().apply()).isEqualTo(Apply.RESTART);
    }

    @Test
    void aStoppedCvmOnTheTargetIsStartedEvenWhenItsComposeChangeWasPlanned() {
        Slot slot = slot().cvm("stopped", false, TARGET);
        slot.composeChangePlanned = true;
        assertThat(slot.apply()).isEqualTo(Apply.START);
    }

    @Test
    void aReplacementWhoseOldCvmIsGoneCreatesNext() {
        assertThat(slot().action(RolloutAction.REPLACE).noCvm().apply()).isEqualTo(Apply.OLD_CVM_GONE);
    }

    @Test
    void aReplacementThatFindsAnotherInstanceIsDone() {
        Slot slot = slot().action(RolloutAction.REPLACE);
        slot.cvm = Slot.cvm("running", false, TARGET, "instance-new");
        assertThat(slot.apply()).isEqualTo(Apply.ALREADY_REPLACED);
    }

    @Test
    void aReplacementDeletesThePlannedInstanceOrOneWithoutABinding() {
        assertThat(slot().action(RolloutAction.REPLACE).apply()).isEqualTo(Apply.DELETE_OLD_CVM);
        Slot unbound = slot().action(RolloutAction.REPLACE);
        unbound.boundInstanceId = null;
        assertThat(unbound.apply()).isEqualTo(Apply.DELETE_OLD_CVM);
    }

    // --- "Check the CVM is running and settled"

    @Test
    void anEmptySlotOfASurgeOrAReplacementGetsItsNewCvm() {
        assertThat(slot().action(RolloutAction.ADD_SURGE).noCvm().await()).isEqualTo(Await.CREATE);
        assertThat(slot().action(RolloutAction.REPLACE).noCvm().await()).isEqualTo(Await.CREATE);
    }

    @Test
    void aSlotWhoseCvmVanishedDuringARestartWaits() {
        assertThat(slot().noCvm().await()).isEqualTo(Await.WAIT_FOR_A_CVM);
    }

    @Test
    void aReplacementWhosePlannedInstanceIsStillThereDeletesIt() {
        assertThat(slot().action(RolloutAction.REPLACE).await()).isEqualTo(Await.DELETE_OLD_CVM);
    }

    @Test
    void aSettledCvmOnTheTargetGetsItsEnvUpdateRunningOrNot() {
        Slot stopped = slot().cvm("stopped", false, TARGET);
        stopped.envPending = true;
        assertThat(stopped.await()).isEqualTo(Await.UPDATE_ENV);
    }

    @Test
    void anEnvUpdateWhoseOutcomeIsUnknownIsLookedAtAgain() {
        Slot slot = slot();
        slot.envUnfinished = true;
        slot.restartUnfinished = true;
        assertThat(slot.await()).isEqualTo(Await.LOOK_AT_ENV_UPDATE_AGAIN);
    }

    @Test
    void aRestartWhoseOutcomeIsUnknownIsLookedAtAgainNotPassed() {
        Slot slot = slot();
        slot.restartUnfinished = true;
        assertThat(slot.await()).isEqualTo(Await.LOOK_AT_RESTART_AGAIN);
    }

    @Test
    void aCvmRunningTheTargetWithNothingOutstandingIsRunning() {
        Slot slot = slot();
        slot.envRequested = true;
        slot.restartAsked = true;
        assertThat(slot.await()).isEqualTo(Await.RUNNING);
    }

    @Test
    void aCvmThatSettledWithoutTheTargetIsAskedForIt() {
        assertThat(slot().cvm("stopped", false, OLD).await()).isEqualTo(Await.UPDATE_COMPOSE);
    }

    @Test
    void aBusyOrStoppedCvmIsWaitedFor() {
        assertThat(slot().cvm("restarting", true, TARGET).await()).isEqualTo(Await.WAIT);
        assertThat(slot().cvm("updating", true, OLD).await()).isEqualTo(Await.WAIT);
        assertThat(slot().cvm("stopped", false, TARGET).await()).isEqualTo(Await.WAIT);
    }
}
