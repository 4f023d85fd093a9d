package com.statefulcvm.delegates.rollout;

import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.delegates.support.SlotStep;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ComposeUpdater;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.fleet.ComposeText;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.CVM_RUNNING;
import static com.statefulcvm.delegates.rollout.RolloutVariables.STAGE;
import static com.statefulcvm.delegates.rollout.RolloutVariables.TARGET_COMPOSE;

/**
 * "Check the CVM is running and settled": ready means running, no operation in progress, and the target compose in
 * place. A CVM that settled without it (the update was lost, or another operation ran first) is asked again.
 */
@Component("awaitCvmRunning")
public class AwaitCvmRunning implements JavaDelegate {

    private final SlotReader slots;
    private final ComposeUpdater updater;
    private final ReplicaSetObserver observer;

    public AwaitCvmRunning(SlotReader slots, ComposeUpdater updater, ReplicaSetObserver observer) {
        this.slots = slots;
        this.updater = updater;
        this.observer = observer;
    }

    @Override
    public void execute(DelegateExecution execution) {
        SlotStep step = slots.read(execution);
        CvmInfo cvm = step.cvm();
        String target = (String) execution.getVariable(TARGET_COMPOSE);
        observer.observe(step.spec(), cvm);
        boolean hasTarget = ComposeText.same(cvm.dockerCompose(), target);
        boolean running = cvm.isRunning() && cvm.isSettled() && hasTarget;
        String stage;
        if (running) {
            stage = "CVM " + cvm.name() + " is running the target compose; probing health";
        } else if (cvm.isSettled() && !hasTarget) {
            stage = updater.ensureUpdateRequested(cvm, target);
        } else {
            stage = "waiting for CVM " + cvm.name() + ": status " + cvm.status() + (cvm.isSettled() ? "" : ", operation in progress");
        }
        execution.setVariable(CVM_RUNNING, running);
        execution.setVariable(STAGE, stage);
    }
}
