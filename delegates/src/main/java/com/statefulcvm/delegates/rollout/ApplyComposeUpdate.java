package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_COMPOSE;

/** "Apply the new compose to the CVM". */
@Component("applyComposeUpdate")
public class ApplyComposeUpdate implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final ComposeUpdater updater;
    private final ReplicaSetObserver observer;

    public ApplyComposeUpdate(ReplicaSets replicaSets, PhalaCloudClient phala, ComposeUpdater updater, ReplicaSetObserver observer) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.updater = updater;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = SlotStep.read(execution, replicaSets, phala);
        String outcome = updater.ensureUpdateRequested(step.cvm(), (String) execution.getVariable(TARGET_COMPOSE));
        observer.observe(step.spec(), step.cvm());
        observer.recordCondition(step.spec(), step.slot(), "Programmed: " + outcome);
        execution.setVariable(STAGE, outcome);
    }
}
