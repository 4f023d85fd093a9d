package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.EnvUpdater;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.TargetCompose;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.effects.EffectIntent;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.COMPOSE_CHANGE_SLOTS;

/**
 * Reads a rollout step's {@link SlotState}: the process's variables, the slot's CVM from Phala, and the attempt's
 * intents. Reads only: whatever it reads, nothing is asked of Phala and nothing is written.
 */
@Component
public class SlotStateReader {

    private final SlotReader slots;
    private final TargetCompose targets;
    private final EnvUpdater envs;
    private final RestartOnce restarts;
    private final PhalaEffects effects;

    public SlotStateReader(SlotReader slots, TargetCompose targets, EnvUpdater envs, RestartOnce restarts, PhalaEffects effects) {
        this.slots = slots;
        this.targets = targets;
        this.envs = envs;
        this.restarts = restarts;
        this.effects = effects;
    }

    public SlotState read(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        RolloutAction action = slots.action(execution);
        String target = targets.of(execution);
        Optional<CvmInfo> cvm = slots.find(spec, slot);
        EffectScope scope = EffectScope.of(execution);
        boolean composeChangePlanned = execution.getVariable(COMPOSE_CHANGE_SLOTS) instanceof Collection<?> planned
                && planned.contains(slot);
        // each intent read once: a step's intent lookups share the effect intents' pool with every job and wake
        Optional<EffectIntent> env = envs.requested(execution);
        Optional<EffectIntent> restart = restarts.asked(scope);
        SlotState.Asked asked = new SlotState.Asked(effects.askedBefore(scope), envs.pending(execution, action, env),
                env.isPresent(), env.filter(i -> i.state().open()).isPresent(),
                restart.isPresent(), restart.filter(i -> i.state().open()).isPresent());
        return new SlotState(spec, slot, action, target, cvm, slots.boundInstanceId(execution),
                composeChangePlanned, scope, asked);
    }
}
