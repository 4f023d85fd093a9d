package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;

import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_COMPOSE;

/** "Apply the new compose to the CVM". */
@Component("applyComposeUpdate")
public class ApplyComposeUpdate implements JavaDelegate {

    private final SlotReader slots;
    private final ComposeUpdater updater;
    private final ReplicaSetObserver observer;

    public ApplyComposeUpdate(SlotReader slots, ComposeUpdater updater, ReplicaSetObserver observer) {
        this.slots = slots;
        this.updater = updater;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = slots.read(execution);
        String outcome = updater.ensureUpdateRequested(step.cvm(), (String) execution.getVariable(TARGET_COMPOSE));
        observer.observe(step.spec(), step.cvm());
        observer.recordCondition(step.spec(), step.slot(), "Programmed: " + outcome);
        execution.setVariable(STAGE, outcome);
    }
}
