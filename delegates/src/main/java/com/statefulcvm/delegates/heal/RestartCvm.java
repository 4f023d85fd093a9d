package com.statefulcvm.delegates.heal;

import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.RestartOnce;
import com.statefulcvm.delegates.support.SlotConditions;
import com.statefulcvm.delegates.support.SlotReader;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Restart the CVM": the same CVM again, its disk and instance_id kept. A running CVM is restarted, a stopped or
 * crashed one started (Phala refuses a restart of a stopped CVM). Idempotent: a CVM that is busy is left to settle,
 * and the request is asked at most once ({@link RestartOnce}: its intent is committed before the call, since a restart
 * cannot be seen afterwards, so a job that runs again after a kill or a database restart asks nothing twice). A slot with no
 * CVM ends the step with the BPMN error {@value #CVM_GONE}: only a replacement can fill it. A slot that a rollout has
 * taken over meanwhile is left to it ({@link YieldToRollout}).
 */
@Component("restartCvm")
public class RestartCvm implements JavaDelegate {

    public static final String CVM_GONE = "CVM_GONE";
    private static final Logger log = LoggerFactory.getLogger(RestartCvm.class);

    private final SlotReader slots;
    private final RestartOnce restarts;
    private final ReplicaSetObserver observer;
    private final SlotConditions conditions;
    private final HealStarter starter;

    public RestartCvm(SlotReader slots, RestartOnce restarts, ReplicaSetObserver observer, SlotConditions conditions,
                      HealStarter starter) {
        this.slots = slots;
        this.restarts = restarts;
        this.observer = observer;
        this.conditions = conditions;
        this.starter = starter;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = slots.spec(execution);
        String slot = slots.slot(execution);
        YieldToRollout.check(execution, spec.getName(), slot, starter);
        Optional<CvmInfo> found = slots.find(spec, slot).filter(c -> !"deleting".equals(c.status()));
        if (found.isEmpty()) {
            execution.setVariable(STAGE, "the CVM of " + slot + " is gone: only a replacement can fill the slot");
            throw new BpmnError(CVM_GONE, "the CVM of " + slot + " is gone (deleted or lost)");
        }
        CvmInfo cvm = found.get();
        observer.observe(spec, cvm);
        EffectScope scope = EffectScope.of(execution);
        Optional<EffectOutcome> asked = restarts.again(scope, cvm);
        String stage;
        if (asked.isPresent()) {
            stage = "restart of " + cvm.name() + ": " + asked.get().text();
        } else if (!cvm.isSettled()) {
            stage = "CVM " + cvm.name() + " is busy (" + cvm.status() + "); waiting for it to settle instead of restarting it";
        } else {
            String what = cvm.isRunning() ? "restart of " + cvm.name() : "start of " + cvm.name() + " (it was " + cvm.status() + ")";
            stage = what + ": " + restarts.restartOrStart(scope, cvm).text() + " (disk and instance " + cvm.instanceId() + " kept)";
        }
        log.info("Heal of {}: {}", slot, stage);
        conditions.set(spec, slot, ConditionType.Programmed, true, stage);
        conditions.reset(spec, slot, "being healed: restart");
        execution.setVariable(STAGE, stage);
    }
}
