package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.OnChainHashRequired;
import com.statefulcvm.connectors.phala.model.CommitUpdateResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectIntentRegistry;
import com.statefulcvm.fleet.effects.EffectState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The only way the orchestrator changes a CVM through Phala: each effect (create, start, stop, shutdown, restart, compose
 * update, env update, delete) is first recorded as an intent, committed in a transaction of its own, and only then
 * asked for. Whoever runs the step again, after a crash, a kill -9 or a database restart, on this node or another,
 * reads the intent back:
 * <ul>
 *   <li>applied: nothing is asked again;</li>
 *   <li>refused by Phala (a 4xx): it may be asked again;</li>
 *   <li>open (the caller died during the call, or the call ended with a 5xx or no answer): Phala is looked at
 *   ({@link EffectEvidence}). A sign the effect took settles it as applied; a CVM plainly unchanged since the intent
 *   means it did not, and it is asked once more, but only after {@code inFlightGuard} for a call that may still be
 *   under way somewhere; anything in between waits.</li>
 * </ul>
 * The caller decides from what Phala shows whether an effect is wanted at all (a busy CVM is left alone, a compose
 * already in place is not updated); this class makes sure that what it decides is done at most once per intention
 * ({@link EffectScope}).
 */
@Component
public class PhalaEffects {

    private static final Logger log = LoggerFactory.getLogger(PhalaEffects.class);
    private final PhalaCloudClient phala;
    private final EffectIntentRegistry intents;
    private final EffectEvidence evidence;
    private final Clock clock;
    private final Duration inFlightGuard;
    private final ProcedureLiveness procedures;
    private final String node = ManagementFactory.getRuntimeMXBean().getName();

    public PhalaEffects(PhalaCloudClient phala, EffectIntentRegistry intents, Clock clock, EffectSettings settings) {
        this(phala, intents, clock, settings, ProcedureLiveness.ALWAYS);
    }

    @Autowired
    public PhalaEffects(PhalaCloudClient phala, EffectIntentRegistry intents, Clock clock, EffectSettings settings,
                        ProcedureLiveness procedures) {
        this.procedures = procedures;
        this.phala = phala;
        this.intents = intents;
        this.clock = clock;
        this.evidence = new EffectEvidence(phala, clock);
        this.inFlightGuard = settings.inFlightGuard();
    }

    public EffectOutcome restart(EffectScope scope, CvmInfo cvm) {
        return apply(scope, Effect.RESTART, null, cvm.id(), () -> describe(phala.restart(cvm.id(), false)));
    }

    public EffectOutcome start(EffectScope scope, CvmInfo cvm) {
        return apply(scope, Effect.START, null, cvm.id(), () -> describe(phala.start(cvm.id())));
    }

    /** A hard stop. */
    public EffectOutcome stop(EffectScope scope, CvmInfo cvm) {
        return apply(scope, Effect.STOP, null, cvm.id(), () -> describe(phala.stop(cvm.id())));
    }

    /**
     * A hard stop that must hold, as a fence's: when the stop of this scope took and the CVM has booted again since
     * (started behind our back), that is a new run to stop, and it is stopped again; the intent counts the attempts.
     */
    public EffectOutcome stopUntilItHolds(EffectScope scope, CvmInfo cvm) {
        String key = scope.key(Effect.STOP, null);
        Optional<EffectIntent> earlier = intents.find(key).filter(i -> i.state() == EffectState.APPLIED);
        if (earlier.isPresent() && cvm.isRunning() && cvm.isSettled() && evidence.bootedSince(cvm, earlier.get().settledAt())) {
            EffectIntent renewed = earlier.get().again(cvm.id(), clock.instant(), node);
            if (!intents.renew(renewed, EffectState.APPLIED)) {
                return pending(earlier.get(), "another run of this step is stopping it again");
            }
            log.warn("{} was stopped by {} and runs again: stopping it again", cvm.name(), key);
            return call(renewed, () -> describe(phala.stop(cvm.id())));
        }
        return stop(scope, cvm);
    }

    /** A graceful stop. */
    public EffectOutcome shutdown(EffectScope scope, CvmInfo cvm) {
        return apply(scope, Effect.SHUTDOWN, null, cvm.id(), () -> describe(phala.shutdown(cvm.id())));
    }

    public EffectOutcome delete(EffectScope scope, CvmInfo cvm) {
        return apply(scope, Effect.DELETE, null, cvm.id(), () -> {
            phala.delete(cvm.id());
            return "deletion accepted";
        });
    }

    /** Keyed by the compose's digest: a second compose for the same slot and attempt is another intention. */
    public EffectOutcome updateCompose(EffectScope scope, CvmInfo cvm, String compose) {
        return apply(scope, Effect.UPDATE_COMPOSE, ComposeText.digest(compose), cvm.id(),
                () -> describe(phala.updateDockerCompose(cvm.id(), compose)));
    }

    /**
     * Phase 2 of an on-chain KMS app's compose update, the same intention as {@link #updateCompose} (its key): committed
     * with the 465's one-time token ({@code POST /cvms/{id}/commit-update}), or, when the 465 carried none, the same
     * update again with the registration's hashes ({@code X-Compose-Hash}, {@code X-Transaction-Hash}).
     */
    public EffectOutcome commitComposeUpdate(EffectScope scope, CvmInfo cvm, String compose, OnChainHashRequired required,
                                             String transactionHash) {
        return apply(scope, Effect.UPDATE_COMPOSE, ComposeText.digest(compose), cvm.id(), () -> required.commitToken() != null
                ? describe(phala.commitUpdate(cvm.id(), required.commitToken(), required.composeHash(), transactionHash))
                : describe(phala.updateDockerCompose(cvm.id(), compose, required.composeHash(), transactionHash)));
    }

    /** Keyed by nothing but the scope: an env cannot be read back, so one env update per attempt is all a step asks. */
    public EffectOutcome updateEnvs(EffectScope scope, CvmInfo cvm, EnvUpdate update) {
        return apply(scope, Effect.UPDATE_ENV, null, cvm.id(), () -> describe(phala.updateEnvs(cvm.id(), update))
                + "; variables " + String.join(", ", update.envKeys()));
    }

    /**
     * A new CVM named after the slot; its intent names the slot, as the CVM has no id yet. {@code creation} makes it
     * and names it ({@code InstanceCreator}: one at a time, read back on a failure of unknown outcome).
     */
    public EffectOutcome create(EffectScope scope, Supplier<CvmInfo> creation) {
        return apply(scope, Effect.CREATE, null, null, () -> {
            CvmInfo created = creation.get();
            return "created " + created.id() + " (" + created.status() + ")";
        });
    }

    /**
     * True when this scope (one attempt at one slot) has asked Phala for anything that may have happened: a run of the
     * step after that is a re-run, whose effect is already on its way, not a new decision to take the slot down.
     */
    public boolean askedBefore(EffectScope scope) {
        if (scope.procedureInstanceId() == null) {
            return false;
        }
        String prefix = scope.id() + "/";
        return intents.ofProcedure(scope.procedureInstanceId()).stream()
                .anyMatch(i -> i.key().startsWith(prefix) && i.state() != EffectState.NOT_APPLIED);
    }

    /** The intent of one effect of the scope, if any was recorded. */
    public Optional<EffectIntent> intent(EffectScope scope, Effect effect) {
        return intents.find(scope.key(effect, null));
    }

    private EffectOutcome apply(EffectScope scope, Effect effect, String target, String cvmId, Supplier<String> call) {
        String key = scope.key(effect, target);
        Instant now = clock.instant();
        EffectIntent intent = new EffectIntent(key, scope.replicaSet(), scope.slot(), cvmId == null ? scope.slot() : cvmId,
                effect, target, scope.procedure(), scope.procedureInstanceId(), EffectState.INTENDED, now, node, null, null, 1);
        Optional<EffectIntent> existing = intents.find(key);
        if (existing.isPresent()) {
            Optional<EffectOutcome> decided = readBack(existing.get(), intent, now);
            if (decided.isPresent()) {
                return decided.get();
            }
            intent = existing.get().again(intent.cvm(), now, node);
        } else if (!intents.record(intent)) {
            return pending(intents.find(key).orElse(intent), "another run of this step recorded the same intent at the same moment");
        }
        if (scope.procedureInstanceId() != null && !procedures.runs(scope.procedureInstanceId())) {
            // looked at last, after any retries of the reads above: the moment before the call is sent
            String why = scope.procedure() + " " + scope.procedureInstanceId() + " ended while this step ran; nothing asked of Phala";
            intents.settle(key, EffectState.NOT_APPLIED, why, clock.instant());
            log.warn("Effect {} not asked: {}", key, why);
            throw new ProcedureEnded(why);
        }
        return call(intent, call);
    }

    /** The step's procedure ended (aborted, say) while the step ran: its effect is not asked for. */
    public static final class ProcedureEnded extends RuntimeException {
        ProcedureEnded(String message) {
            super(message);
        }
    }

    /** Empty when the effect is to be asked for (again): the intent has been renewed for it. */
    private Optional<EffectOutcome> readBack(EffectIntent earlier, EffectIntent fresh, Instant now) {
        switch (earlier.state()) {
            case APPLIED -> {
                return Optional.of(new EffectOutcome(EffectOutcome.Kind.ALREADY_APPLIED, earlier,
                        earlier.describe() + "; not asked again"));
            }
            case NOT_APPLIED -> {
                return renew(earlier, fresh, now);
            }
            default -> {
                EffectEvidence.Finding finding = evidence.look(earlier);
                switch (finding.verdict()) {
                    case APPLIED -> {
                        intents.settle(earlier.key(), EffectState.APPLIED, "seen at Phala: " + finding.reason(), now);
                        EffectIntent settled = earlier.settled(EffectState.APPLIED, "seen at Phala: " + finding.reason(), now);
                        log.info("Effect {} had taken: {}", earlier.key(), finding.reason());
                        return Optional.of(new EffectOutcome(EffectOutcome.Kind.ALREADY_APPLIED, settled, settled.describe() + "; not asked again"));
                    }
                    case NOT_APPLIED -> {
                        boolean mayBeInFlight = earlier.state() == EffectState.INTENDED
                                && Duration.between(earlier.intendedAt(), now).compareTo(inFlightGuard) < 0;
                        if (mayBeInFlight) {
                            return Optional.of(pending(earlier, "Phala shows no sign of it yet (" + finding.reason()
                                    + "), and its call may still be under way until " + earlier.intendedAt().plus(inFlightGuard)));
                        }
                        intents.settle(earlier.key(), EffectState.NOT_APPLIED, "Phala shows it did not take: " + finding.reason(), now);
                        log.info("Effect {} had not taken ({}); asking again", earlier.key(), finding.reason());
                        return renew(earlier.settled(EffectState.NOT_APPLIED, finding.reason(), now), fresh, now);
                    }
                    default -> {
                        return Optional.of(pending(earlier, finding.reason()));
                    }
                }
            }
        }
    }

    private Optional<EffectOutcome> renew(EffectIntent earlier, EffectIntent fresh, Instant now) {
        EffectIntent renewed = earlier.again(fresh.cvm(), now, node);
        if (!intents.renew(renewed, EffectState.NOT_APPLIED)) {
            return Optional.of(pending(earlier, "another run of this step is asking again"));
        }
        return Optional.empty();
    }

    private EffectOutcome call(EffectIntent intent, Supplier<String> call) {
        String answer;
        try {
            answer = call.get();
        } catch (PhalaApiException e) {
            // a refusal (4xx), or a call the open circuit did not even send: nothing happened at Phala
            boolean refused = e instanceof PhalaUnreachable || e.status() >= 400 && e.status() < 500;
            EffectState state = refused ? EffectState.NOT_APPLIED : EffectState.UNCERTAIN;
            try {
                intents.settle(intent.key(), state, e.getMessage(), clock.instant());
            } catch (RuntimeException notRecorded) {
                // the intent stays INTENDED: whoever runs the step next looks at Phala first
                e.addSuppressed(notRecorded);
            }
            throw e;
        }
        intents.settle(intent.key(), EffectState.APPLIED, answer, clock.instant());
        EffectIntent applied = intent.settled(EffectState.APPLIED, answer, clock.instant());
        log.info("Phala accepted {} ({})", intent.key(), answer);
        return new EffectOutcome(EffectOutcome.Kind.REQUESTED, applied, applied.describe());
    }

    private static EffectOutcome pending(EffectIntent intent, String why) {
        return new EffectOutcome(EffectOutcome.Kind.PENDING, intent, "waiting for the outcome of an earlier request: "
                + intent.describe() + ": " + why);
    }

    private static String describe(CvmInfo cvm) {
        return cvm == null ? "accepted" : "accepted, " + cvm.status();
    }

    private static String describe(UpdateResult result) {
        return result == null ? "accepted" : "accepted, " + result.status() + ", correlation " + result.correlationId();
    }

    private static String describe(CommitUpdateResult result) {
        return result == null ? "committed" : "committed, " + result.status() + ", correlation " + result.correlationId();
    }
}
