package com.statefulcvm.delegates.support;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.SlotMembers;
import com.statefulcvm.fleet.UpdatePolicy;
import com.statefulcvm.fleet.rollout.RolloutAction;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;


/**
 * What every per-slot step starts from: the set's spec and the slot's CVM as Phala reports it now. Every procedure
 * names its set {@code replicaSet} and its slot {@code slot}.
 */
@Component
public class SlotReader {


    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;
    private final EffectivePolicy policies;

    public SlotReader(ReplicaSets replicaSets, PhalaCloudClient phala, EffectivePolicy policies) {
        this.replicaSets = replicaSets;
        this.phala = phala;
        this.policies = policies;
    }

    /** @throws IllegalStateException when the slot has no CVM */
    public SlotStep read(DelegateExecution execution) {
        ReplicaSetSpec spec = spec(execution);
        String slot = slot(execution);
        CvmInfo cvm = find(spec, slot).orElseThrow(() -> new IllegalStateException("slot " + slot + " has no CVM"));
        return new SlotStep(spec, slot, cvm);
    }

    public ReplicaSetSpec spec(DelegateExecution execution) {
        return replicaSets.spec((String) execution.getVariable(ProcedureVariables.REPLICA_SET));
    }

    /**
     * The update policy this step runs under: the set's with its rollout's override applied ({@link EffectivePolicy}).
     * Every per-slot step that needs a policy field (the health gate's min ready, the budget check's maxUnavailable)
     * reads it here, not from {@code spec.getUpdatePolicy()}, which is the fleet file's alone. A procedure without an
     * override (heal, scale) gets the set's own.
     */
    public UpdatePolicy policy(DelegateExecution execution, ReplicaSetSpec spec) {
        return policies.of(spec, execution);
    }

    public String slot(DelegateExecution execution) {
        return (String) execution.getVariable(ProcedureVariables.SLOT);
    }

    /** What the plan says this slot needs: the rollout's {@code actions} map, keyed by slot name. */
    public RolloutAction action(DelegateExecution execution) {
        Object action = execution.getVariable(RolloutVariables.ACTIONS) instanceof Map<?, ?> actions ? actions.get(slot(execution)) : null;
        if (action == null) {
            throw new IllegalStateException("the plan holds no action for slot " + slot(execution));
        }
        return RolloutAction.valueOf(action.toString());
    }

    /** The instance_id the slot had when the rollout was planned (a replacement deletes exactly that CVM). */
    public String boundInstanceId(DelegateExecution execution) {
        Object id = execution.getVariable(RolloutVariables.BOUND_INSTANCE_IDS) instanceof Map<?, ?> ids ? ids.get(slot(execution)) : null;
        return id == null ? null : id.toString();
    }

    /**
     * The slot's CVM, by the id the registry knows, else by the slot's name, else by the name or id the fleet file's
     * {@code members:} gives it (a replaced or newly created CVM has a new id), named after its slot; empty when Phala
     * has none of them.
     */
    public Optional<CvmInfo> find(ReplicaSetSpec spec, String slot) {
        Set<String> refs = new LinkedHashSet<>();
        refs.add(replicaSets.cvmIdOf(spec, slot));
        refs.add(slot);
        SlotMembers.of(spec).cvmOf(replicaSets.ordinalOf(spec, slot)).ifPresent(refs::add);
        for (String ref : refs) {
            try {
                return Optional.of(phala.getCvm(ref).withName(slot));
            } catch (PhalaApiException e) {
                if (!e.isNotFound()) {
                    throw e;
                }
            }
        }
        return Optional.empty();
    }
}
