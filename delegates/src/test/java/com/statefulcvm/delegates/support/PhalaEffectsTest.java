package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.ComposeFile;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.CvmState;
import com.statefulcvm.connectors.phala.model.Progress;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectState;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Each effect is asked at most once per intention: the intent is committed first and read back by every later run of
 * the step. An intent whose outcome nobody saw (the node died during the call, or Phala answered 5xx or not at all) is
 * settled from what Phala shows; the effect is asked again only when Phala shows plainly that it did not take, and for
 * a call that may still be in flight, only after the guard.
 */
class PhalaEffectsTest {

    static final String OLD = "services:\n  web:\n    image: a\n";
    static final String NEW = "services:\n  web:\n    image: b\n";
    static final Duration GUARD = Duration.ofMinutes(2);

    final MutableClock clock = new MutableClock(Instant.parse("2025-06-01T12:00:00Z"));
    final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    final MemoryEffectIntents intents = new MemoryEffectIntents();
    final PhalaEffects effects = new PhalaEffects(phala, intents, clock, new EffectSettings(GUARD));
    final EffectScope scope = new EffectScope("webdemo", "webdemo-1", "rollout", "pid-1", "pid-1/webdemo-1#1");

    static CvmInfo cvm(String status, boolean inProgress, String compose) {
        return new CvmInfo("cvm_abc", "webdemo-1", "a".repeat(40), "uuid", "i".repeat(40), status, inProgress,
                inProgress ? new Progress("running", null, "corr") : null, "hash", null, null, null, null, null, null, null,
                null, null, null, null, new ComposeFile("webdemo", compose, null, null, null, null, null, null, null, null, null));
    }

    /** Phala shows the CVM, and its current boot began {@code uptime} ago (or, stopped, it exited at {@code exitedAt}). */
    void phalaShows(CvmInfo cvm, String uptime, String exitedAt) {
        when(phala.getCvm("cvm_abc")).thenReturn(cvm);
        when(phala.getCvm("webdemo-1")).thenReturn(cvm);
        when(phala.getCvmState("cvm_abc")).thenReturn(new CvmState("cvm_abc", "i", "webdemo-1", cvm.status(), uptime, exitedAt,
                null, null, null));
    }

    /** An intent as an earlier run left it: recorded {@code ago}, in {@code state}. */
    EffectIntent earlier(Effect effect, String target, EffectState state, Duration ago) {
        Instant at = clock.instant().minus(ago);
        EffectIntent intent = new EffectIntent(scope.key(effect, target), "webdemo", "webdemo-1", "cvm_abc", effect, target,
                "rollout", "pid-1", state, at, "node-1", null, null, 1);
        intents.put(intent);
        return intent;
    }

    @Test
    void theIntentIsCommittedBeforeTheCallAndARerunAsksNothing() {
        CvmInfo running = cvm("running", false, OLD);
        when(phala.restart("cvm_abc", false)).thenAnswer(call -> {
            // at the moment of the call, the intent is already there for anyone to read
            assertThat(intents.find(scope.key(Effect.RESTART, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.INTENDED);
            return cvm("restarting", true, OLD);
        });

        assertThat(effects.restart(scope, running).kind()).isEqualTo(EffectOutcome.Kind.REQUESTED);
        EffectOutcome again = effects.restart(scope, running);

        assertThat(again.kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, times(1)).restart("cvm_abc", false);
        assertThat(intents.find(scope.key(Effect.RESTART, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.APPLIED);
    }

    /**
     * A step whose procedure ended while it ran (aborted during the step's retries) asks Phala nothing: its effect
     * would overlap the next procedure of the set. Without the look the update was sent after the abort.
     */
    @Test
    void aStepWhoseProcedureEndedWhileItRanAsksPhalaNothing() {
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        PhalaEffects guarded = new PhalaEffects(phala, intents, clock, new EffectSettings(GUARD), pid -> {
            assertThat(pid).isEqualTo("pid-1");
            return running.get();
        });
        running.set(false);
        assertThatThrownBy(() -> guarded.updateCompose(scope, cvm("running", false, OLD), NEW))
                .isInstanceOf(PhalaEffects.ProcedureEnded.class).hasMessageContaining("rollout pid-1 ended while this step ran");
        verify(phala, never()).updateDockerCompose(anyString(), anyString());
        assertThat(intents.find(scope.key(Effect.UPDATE_COMPOSE, ComposeText.digest(NEW)))).get()
                .extracting(EffectIntent::state).isEqualTo(EffectState.NOT_APPLIED);
    }

    @Test
    void anOpenIntentWhoseCvmBootedSinceIsSettledAppliedWithoutAnotherCall() {
        earlier(Effect.RESTART, null, EffectState.INTENDED, Duration.ofSeconds(20));
        phalaShows(cvm("running", false, OLD), "12s", null);

        EffectOutcome outcome = effects.restart(scope, cvm("running", false, OLD));

        assertThat(outcome.kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, never()).restart(anyString(), anyBoolean());
        assertThat(intents.find(scope.key(Effect.RESTART, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.APPLIED);
    }

    @Test
    void anOpenIntentWhoseCvmPlainlyDidNotRestartWaitsOutTheGuardThenIsAskedOnceMore() {
        earlier(Effect.RESTART, null, EffectState.INTENDED, Duration.ofSeconds(20));
        phalaShows(cvm("running", false, OLD), "3h 2m 1s", null);

        EffectOutcome within = effects.restart(scope, cvm("running", false, OLD));
        assertThat(within.kind()).isEqualTo(EffectOutcome.Kind.PENDING);
        assertThat(within.text()).contains("may still be under way");
        verify(phala, never()).restart(anyString(), anyBoolean());

        clock.advance(GUARD);
        when(phala.restart("cvm_abc", false)).thenReturn(cvm("restarting", true, OLD));
        EffectOutcome after = effects.restart(scope, cvm("running", false, OLD));
        assertThat(after.kind()).isEqualTo(EffectOutcome.Kind.REQUESTED);
        assertThat(after.intent().attempts()).isEqualTo(2);
        verify(phala, times(1)).restart("cvm_abc", false);
    }

    @Test
    void aCallThatEndedWithoutAVerdictIsLookedAtAndAskedAgainAtOnceWhenPhalaShowsNothing() {
        when(phala.restart("cvm_abc", false)).thenThrow(new PhalaApiException(502, null, "bad gateway", null, "POST", "/cvms/cvm_abc/restart", null));
        assertThatThrownBy(() -> effects.restart(scope, cvm("running", false, OLD))).isInstanceOf(PhalaApiException.class);
        assertThat(intents.find(scope.key(Effect.RESTART, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.UNCERTAIN);

        phalaShows(cvm("running", false, OLD), "2h", null);
        org.mockito.Mockito.reset(phala);
        phalaShows(cvm("running", false, OLD), "2h", null);
        when(phala.restart("cvm_abc", false)).thenReturn(cvm("restarting", true, OLD));
        assertThat(effects.restart(scope, cvm("running", false, OLD)).kind()).isEqualTo(EffectOutcome.Kind.REQUESTED);
        verify(phala, times(1)).restart("cvm_abc", false);
    }

    @Test
    void aRefusalLeavesTheEffectNotAppliedAndTheNextRunMayAsk() {
        when(phala.start("cvm_abc")).thenThrow(new PhalaApiException(409, null, "in progress", null, "POST", "/cvms/cvm_abc/start", null));
        assertThatThrownBy(() -> effects.start(scope, cvm("stopped", false, OLD))).isInstanceOf(PhalaApiException.class);
        assertThat(intents.find(scope.key(Effect.START, null))).get().extracting(EffectIntent::state).isEqualTo(EffectState.NOT_APPLIED);

        org.mockito.Mockito.reset(phala);
        when(phala.start("cvm_abc")).thenReturn(cvm("starting", true, OLD));
        assertThat(effects.start(scope, cvm("stopped", false, OLD)).kind()).isEqualTo(EffectOutcome.Kind.REQUESTED);
        verify(phala, never()).getCvm(anyString());
    }

    @Test
    void aCvmBusyWithSomethingElseKeepsTheIntentOpen() {
        earlier(Effect.UPDATE_ENV, null, EffectState.UNCERTAIN, Duration.ofMinutes(10));
        phalaShows(cvm("stopping", true, OLD), null, null);

        assertThat(effects.updateEnvs(scope, cvm("stopping", true, OLD), new com.statefulcvm.connectors.phala.model.EnvUpdate("x", java.util.List.of("A")))
                .kind()).isEqualTo(EffectOutcome.Kind.PENDING);
        verify(phala, never()).updateEnvs(anyString(), any());
    }

    @Test
    void aComposeUpdateIsSeenByTheComposeItLeftBehind() {
        earlier(Effect.UPDATE_COMPOSE, ComposeText.digest(NEW), EffectState.INTENDED, Duration.ofSeconds(5));
        phalaShows(cvm("running", false, NEW), "1h", null);

        assertThat(effects.updateCompose(scope, cvm("running", false, NEW), NEW).kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, never()).updateDockerCompose(anyString(), anyString());
    }

    @Test
    void aSecondComposeForTheSameAttemptIsAnotherIntention() {
        when(phala.updateDockerCompose(anyString(), anyString())).thenReturn(new UpdateResult("in_progress", "accepted", "c", null));
        effects.updateCompose(scope, cvm("running", false, OLD), NEW);
        effects.updateCompose(scope, cvm("running", false, NEW), OLD);
        verify(phala, times(2)).updateDockerCompose(anyString(), anyString());
    }

    @Test
    void aCreateWhoseCvmExistsIsNotMadeAgainAndOneThatDidNotHappenIsAfterTheGuard() {
        EffectIntent created = new EffectIntent(scope.key(Effect.CREATE, null), "webdemo", "webdemo-1", "webdemo-1", Effect.CREATE,
                null, "rollout", "pid-1", EffectState.INTENDED, clock.instant().minusSeconds(5), "node-1", null, null, 1);
        intents.put(created);
        when(phala.getCvm("webdemo-1")).thenReturn(cvm("starting", true, OLD));
        assertThat(effects.create(scope, () -> phala.createAppInstance("app", AppInstanceRequest.onNode(null))).kind())
                .isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);

        intents.put(created);
        org.mockito.Mockito.reset(phala);
        when(phala.getCvm("webdemo-1")).thenThrow(new PhalaApiException(404, null, "not found", null, "GET", "/cvms/webdemo-1", null));
        assertThat(effects.create(scope, () -> phala.createAppInstance("app", AppInstanceRequest.onNode(null))).kind())
                .isEqualTo(EffectOutcome.Kind.PENDING);
        clock.advance(GUARD);
        when(phala.createAppInstance(anyString(), any())).thenReturn(cvm("pending", true, OLD));
        assertThat(effects.create(scope, () -> phala.createAppInstance("app", AppInstanceRequest.onNode(null))).kind())
                .isEqualTo(EffectOutcome.Kind.REQUESTED);
        verify(phala, times(1)).createAppInstance(anyString(), any());
    }

    @Test
    void aDeletionWhoseCvmIsGoneHadTaken() {
        earlier(Effect.DELETE, null, EffectState.INTENDED, Duration.ofSeconds(5));
        when(phala.getCvm(anyString())).thenThrow(new PhalaApiException(404, null, "not found", null, "GET", "/cvms/x", null));
        assertThat(effects.delete(scope, cvm("running", false, OLD)).kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, never()).delete(anyString());
    }

    @Test
    void aRunThatFindsAnotherRunsRequestLooksAtPhalaInsteadOfCalling() {
        earlier(Effect.START, null, EffectState.NOT_APPLIED, Duration.ofSeconds(5));
        EffectIntent renewedByTheOther = intents.find(scope.key(Effect.START, null)).orElseThrow().again("cvm_abc", clock.instant(), "node-2");
        assertThat(intents.renew(renewedByTheOther, EffectState.NOT_APPLIED)).isTrue();
        // this run read NOT_APPLIED a moment ago; its own renewal loses, so it waits instead of calling
        phalaShows(cvm("starting", true, OLD), null, null);
        assertThat(effects.start(scope, cvm("stopped", false, OLD)).kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, never()).start(anyString());
    }

    @Test
    void aFenceStopIsMadeAgainOnlyForANewRunOfTheCvm() {
        EffectIntent stopped = earlier(Effect.STOP, null, EffectState.APPLIED, Duration.ofMinutes(5));
        intents.settle(stopped.key(), EffectState.APPLIED, "accepted", clock.instant().minus(Duration.ofMinutes(5)));

        phalaShows(cvm("running", false, OLD), "10m", null);
        assertThat(effects.stopUntilItHolds(scope, cvm("running", false, OLD)).kind()).isEqualTo(EffectOutcome.Kind.ALREADY_APPLIED);
        verify(phala, never()).stop(anyString());

        phalaShows(cvm("running", false, OLD), "30s", null);
        when(phala.stop("cvm_abc")).thenReturn(cvm("stopping", true, OLD));
        EffectOutcome again = effects.stopUntilItHolds(scope, cvm("running", false, OLD));
        assertThat(again.kind()).isEqualTo(EffectOutcome.Kind.REQUESTED);
        assertThat(again.intent().attempts()).isEqualTo(2);
        verify(phala, times(1)).stop("cvm_abc");
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
