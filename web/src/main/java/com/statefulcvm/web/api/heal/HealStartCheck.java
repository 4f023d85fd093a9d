package com.statefulcvm.web.api.heal;

import com.statefulcvm.web.api.ProcedureStartRefused;
import com.statefulcvm.web.api.ProcedureStartCheck;
import com.statefulcvm.web.api.ProcedureStart;
import com.statefulcvm.web.api.Ordinals;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.HealStarter;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Set;

/**
 * heal.bpmn's start, from the start form ({@code replicaSet}, {@code ordinal}, optional {@code reason}), our REST API or
 * the health monitor: the instance exists, no heal of it runs, no rollout works on it ({@link HealStarter}'s rules,
 * the REST API's messages), and a fenced instance only by a readmit. The health monitor's budget is the monitor's own
 * business and is not asked here.
 */
@Component
class HealStartCheck extends ProcedureStartCheck {

    static final Set<String> START_VARIABLES = Set.of(HealVariables.REPLICA_SET, HealVariables.ORDINAL, ProcedureVariables.REASON,
            HealVariables.SLOT, HealVariables.HEAL_REASON, HealVariables.HEAL_TRIGGER, HealVariables.REQUESTED_BY);

    private final HealStarter starter;
    private final HealController heals;

    HealStartCheck(ReplicaSets replicaSets, HealStarter starter, HealController heals) {
        super(HealVariables.HEAL_PROCESS, START_VARIABLES, replicaSets);
        this.starter = starter;
        this.heals = heals;
    }

    /**
     * A user's heal is the operator's (the default) or a readmit of a fenced slot; only the application's own code
     * (the health monitor) starts one as the monitor.
     */
    private String trigger(ProcedureStart start, ReplicaSetSpec spec, int ordinal) {
        String given = start.text(HealVariables.HEAL_TRIGGER);
        if (given == null) {
            return HealVariables.TRIGGER_OPERATOR;
        }
        if (HealVariables.TRIGGER_READMIT.equals(given)) {
            heals.requireFenced(spec, ordinal);
            return given;
        }
        if (HealVariables.TRIGGER_OPERATOR.equals(given) || HealVariables.TRIGGER_MONITOR.equals(given) && !start.byUser()) {
            return given;
        }
        throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, HealVariables.HEAL_TRIGGER + ": must be '"
                + HealVariables.TRIGGER_OPERATOR + "' or '" + HealVariables.TRIGGER_READMIT + "' (of a fenced instance), was '" + given + "'");
    }

    @Override
    protected String check(ProcedureStart start, ReplicaSetSpec spec) {
        Object given = start.firstOf(HealVariables.ORDINAL);
        if (given == null) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, "ordinal: is required");
        }
        int ordinal = Ordinals.parse(spec, String.valueOf(given));
        String slot = spec.slotName(ordinal);
        String trigger = trigger(start, spec, ordinal);
        if (!HealVariables.TRIGGER_READMIT.equals(trigger)) {
            heals.requireNotFenced(spec, ordinal);
        }
        // the set's lock first, then the engine's state: a concurrent start is over (and seen) or waits for this one
        starter.serializeStartsOf(spec.getName());
        HealController.requireStarted(starter.refusal(spec, ordinal, starter.snapshot(spec.getName()), false), slot);

        start.set(HealVariables.ORDINAL, ordinal);
        start.set(HealVariables.SLOT, slot);
        start.set(HealVariables.HEAL_TRIGGER, trigger);
        start.recordRequest(HealVariables.HEAL_REASON, start.text(ProcedureVariables.REASON));
        return HealVariables.businessKey(spec.getName(), ordinal);
    }
}
