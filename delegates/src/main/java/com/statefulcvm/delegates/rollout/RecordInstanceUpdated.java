package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;

/** "Record the instance as updated": the registry takes the new compose hash and the Ready condition. */
@Component("recordInstanceUpdated")
public class RecordInstanceUpdated implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final ReplicaSetObserver observer;

    public RecordInstanceUpdated(ReplicaSets replicaSets, PhalaCloudClient phala, ReplicaSetObserver observer) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = SlotStep.read(execution, replicaSets, phala);
        observer.observe(step.spec(), step.cvm());
        String condition = "Ready: updated to compose " + step.cvm().composeHash() + " by rollout " + execution.getProcessInstanceId();
        observer.recordCondition(step.spec(), step.slot(), condition);
        execution.setVariable(STAGE, condition);
    }
}
