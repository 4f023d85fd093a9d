package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;

import com.statefulcvm.delegates.support.ReplicaSetObserver;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;

/** "Record the instance as updated": the registry takes the new compose hash and the Ready condition. */
@Component("recordInstanceUpdated")
public class RecordInstanceUpdated implements JavaDelegate {

    private final SlotReader slots;
    private final ReplicaSetObserver observer;

    public RecordInstanceUpdated(SlotReader slots, ReplicaSetObserver observer) {
        this.slots = slots;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = slots.read(execution);
        observer.observe(step.spec(), step.cvm());
        String condition = "Ready: updated to compose " + step.cvm().composeHash() + " by rollout " + execution.getProcessInstanceId();
        observer.recordCondition(step.spec(), step.slot(), condition);
        execution.setVariable(STAGE, condition);
    }
}
