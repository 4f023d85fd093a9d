package com.statefulcvm.delegates.heal;

import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.support.SlotReader;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.procedure.RolloutVariables.STAGE;

/**
 * "Is a rollout working on the slot now?": a heal never acts on a CVM that a rollout has taken over since the heal
 * began (the rollout was approved, or moved on to the slot's wave). Before each step that may ask Phala to change the
 * CVM (restart, replace, the polls that create, delete or update it) the heal asks the engine, by the same rule the
 * monitor uses ({@link HealStarter#claims}), and if a rollout holds the slot it ends with the BPMN error
 * {@value #SLOT_TAKEN}, leaving the instance to the rollout. It yields the same way to an outage of the set
 * ({@link HealStarter}'s rule): the set is then recovered as a whole, not one slot at a time.
 */
@Component("yieldToRollout")
public class YieldToRollout implements JavaDelegate {

    public static final String SLOT_TAKEN = "SLOT_TAKEN";

    private final SlotReader slots;
    private final HealStarter starter;

    public YieldToRollout(SlotReader slots, HealStarter starter) {
        this.slots = slots;
        this.starter = starter;
    }

    @Override
    public void execute(DelegateExecution execution) {
        check(execution, (String) execution.getVariable(HealVariables.REPLICA_SET), slots.slot(execution), starter);
    }

    static void check(DelegateExecution execution, String replicaSet, String slot, HealStarter starter) {
        String rollout = starter.claims(replicaSet).get(slot);
        if (rollout != null) {
            String why = "rollout " + rollout + " is working on " + slot + ": the heal leaves the instance to it";
            execution.setVariable(STAGE, why);
            execution.setVariable(HealVariables.HEAL_FAILURE, why);
            throw new BpmnError(SLOT_TAKEN, why);
        }
        var outage = starter.outageRefusal(replicaSet, "this heal of " + slot);
        if (outage.isPresent()) {
            execution.setVariable(STAGE, outage.get());
            execution.setVariable(HealVariables.HEAL_FAILURE, outage.get());
            throw new BpmnError(SLOT_TAKEN, outage.get());
        }
    }
}
