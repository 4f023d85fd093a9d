package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.delegates.rollout.SlotReconciler.Apply;
import com.statefulcvm.delegates.rollout.SlotReconciler.Await;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every branch of the decisions that keep a rollout step safe to run again: each test names the state a step can find
 * its slot in (often on a re-run: after a crash, a kill -9, a takeover, an operator's retry) and what it decides.
 */
class SlotReconcilerTest {

    private static final String TARGET = "services:\n  web:\n    image: b\n";
    private static final String OLD = "services:\n  web:\n    image: a\n";
    private static final String PLANNED_INSTANCE = "instance-planned";

    /** What a state can hold besides the action and the CVM (each false unless named). */
    private enum Fact { COMPOSE_CHANGE_PLANNED, ASKED_ANYTHING, ENV_PENDING, ENV_REQUESTED, ENV_UNFINISHED, RESTART_ASKED, RESTART_UNFINISHED }

    /** The slot as a step reads it: by default a running CVM on the target, the planned instance, nothing asked yet. */
    private static final class Slot {
        private RolloutAction action = RolloutAction.RESTART;
        private CvmInfo cvm = cvm("running", false, TARGET, PLANNED_INSTANCE);
        private String boundInstanceId = PLANNED_INSTANCE;
        private final Set<Fact> facts = EnumSet.noneOf(Fact.class);

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

        Slot anotherInstance() {
            this.cvm = cvm(cvm.status(), false, TARGET, "instance-new");
            return this;
        }

        Slot unbound() {
            this.boundInstanceId = null;
            return this;
        }

        Slot with(Fact... facts) {
            this.facts.addAll(List.of(facts));
            return this;
        }

        SlotState state() {
            return new SlotState(null, "webdemo-1", action, TARGET, Optional.ofNullable(cvm), boundInstanceId,
                    facts.contains(Fact.COMPOSE_CHANGE_PLANNED), null, new SlotState.Asked(facts.contains(Fact.ASKED_ANYTHING),
                    facts.contains(Fact.ENV_PENDING), facts.contains(Fact.ENV_REQUESTED), facts.contains(Fact.ENV_UNFINISHED),
                    facts.contains(Fact.RESTART_ASKED), facts.contains(Fact.RESTART_UNFINISHED)));
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

        private static CvmInfo cvm(String status, boolean inProgress, String compose, String instanceId) {
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
        assertThat(slot().with(Fact.ASKED_ANYTHING).takesRunningSlotDown()).isFalse();
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
        assertThat(slot().cvm("running", false, OLD).with(Fact.ENV_PENDING, Fact.RESTART_ASKED).apply()).isEqualTo(Apply.UPDATE_COMPOSE);
    }

    @Test
    void aCvmOnTheTargetWithAnEnvChangeStillToAskGetsTheEnvUpdate() {
        assertThat(slot().with(Fact.ENV_PENDING).apply()).isEqualTo(Apply.UPDATE_ENV);
    }

    @Test
    void anEnvUpdateAskedAlreadyIsNotRestartedOnTop() {
        assertThat(slot().with(Fact.ENV_REQUESTED, Fact.RESTART_ASKED).apply()).isEqualTo(Apply.ENV_ALREADY_REQUESTED);
    }

    @Test
    void aRestartAskedAlreadyIsLookedAtAgainEvenWhileTheCvmIsBusy() {
        assertThat(slot().cvm("restarting", true, TARGET).with(Fact.RESTART_ASKED).apply()).isEqualTo(Apply.LOOK_AT_RESTART_AGAIN);
    }

    @Test
    void aBusyCvmIsWaitedFor() {
        assertThat(slot().cvm("restarting", true, TARGET).apply()).isEqualTo(Apply.WAIT_TO_SETTLE);
    }

    @Test
    void aCvmRunningTheComposeAnEarlierAttemptPutThereIsNotRestartedAgain() {
        assertThat(slot().with(Fact.COMPOSE_CHANGE_PLANNED).apply()).isEqualTo(Apply.ALREADY_UPDATED);
    }

    @Test
    void aRunningCvmOnAnUnchangedComposeIsRestarted() {
        assertThat(slot().apply()).isEqualTo(Apply.RESTART);
    }

    @Test
    void aStoppedCvmOnTheTargetIsStartedEvenWhenItsComposeChangeWasPlanned() {
        assertThat(slot().cvm("stopped", false, TARGET).with(Fact.COMPOSE_CHANGE_PLANNED).apply()).isEqualTo(Apply.START);
    }

    @Test
    void aReplacementWhoseOldCvmIsGoneCreatesNext() {
        assertThat(slot().action(RolloutAction.REPLACE).noCvm().apply()).isEqualTo(Apply.OLD_CVM_GONE);
    }

    @Test
    void aReplacementThatFindsAnotherInstanceIsDone() {
        assertThat(slot().action(RolloutAction.REPLACE).anotherInstance().apply()).isEqualTo(Apply.ALREADY_REPLACED);
    }

    @Test
    void aReplacementDeletesThePlannedInstanceOrOneWithoutABinding() {
        assertThat(slot().action(RolloutAction.REPLACE).apply()).isEqualTo(Apply.DELETE_OLD_CVM);
        assertThat(slot().action(RolloutAction.REPLACE).unbound().apply()).isEqualTo(Apply.DELETE_OLD_CVM);
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
        assertThat(slot().with(Fact.ENV_PENDING).await()).isEqualTo(Await.UPDATE_ENV);
        assertThat(slot().cvm("stopped", false, TARGET).with(Fact.ENV_PENDING).await()).isEqualTo(Await.UPDATE_ENV);
    }

    @Test
    void anEnvUpdateWhoseOutcomeIsUnknownIsLookedAtAgain() {
        assertThat(slot().with(Fact.ENV_UNFINISHED, Fact.RESTART_UNFINISHED).await()).isEqualTo(Await.LOOK_AT_ENV_UPDATE_AGAIN);
    }

    @Test
    void aRestartWhoseOutcomeIsUnknownIsLookedAtAgainNotPassed() {
        assertThat(slot().with(Fact.RESTART_UNFINISHED).await()).isEqualTo(Await.LOOK_AT_RESTART_AGAIN);
    }

    @Test
    void aCvmRunningTheTargetWithNothingOutstandingIsRunning() {
        assertThat(slot().with(Fact.ENV_REQUESTED, Fact.RESTART_ASKED).await()).isEqualTo(Await.RUNNING);
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
