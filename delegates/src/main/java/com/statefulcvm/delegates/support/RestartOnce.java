package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.effects.Effect;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.effects.EffectState;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * A restart of an unchanged CVM, its disk and instance_id kept (a start when it is stopped: Phala refuses to restart a
 * stopped CVM), asked at most once per attempt at the slot. A restart leaves nothing to see once it is over, so its
 * intent ({@link PhalaEffects}) is all that tells a second run of the step that it was asked: the rollout's in-place
 * restart, the heal's restart, and the check that the CVM runs again all read it.
 */
@Component
public class RestartOnce {

    private static final Effect[] KINDS = {Effect.RESTART, Effect.START};

    private final PhalaEffects effects;

    public RestartOnce(PhalaEffects effects) {
        this.effects = effects;
    }

    /**
     * When this attempt asked already (and Phala did not refuse): the same request looked at again, so that one whose
     * outcome was unknown is settled, and asked once more only if Phala shows it did not take. Empty when nothing was
     * asked yet.
     */
    public Optional<EffectOutcome> again(EffectScope scope, CvmInfo cvm) {
        return earlier(scope).map(intent -> intent.effect() == Effect.START ? effects.start(scope, cvm) : effects.restart(scope, cvm));
    }

    /**
     * The restart or start this attempt asked for already (and Phala did not refuse), empty when none: its state says
     * whether its outcome is still unknown ({@code state().open()}).
     */
    public Optional<EffectIntent> asked(EffectScope scope) {
        return earlier(scope);
    }

    /** Restarts the CVM, or starts it when it is not running; the caller has checked it is settled. */
    public EffectOutcome restartOrStart(EffectScope scope, CvmInfo cvm) {
        return cvm.isRunning() ? effects.restart(scope, cvm) : effects.start(scope, cvm);
    }

    private Optional<EffectIntent> earlier(EffectScope scope) {
        for (Effect kind : KINDS) {
            Optional<EffectIntent> intent = effects.intent(scope, kind).filter(i -> i.state() != EffectState.NOT_APPLIED);
            if (intent.isPresent()) {
                return intent;
            }
        }
        return Optional.empty();
    }
}
