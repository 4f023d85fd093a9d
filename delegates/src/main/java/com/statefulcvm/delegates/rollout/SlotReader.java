package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import static com.statefulcvm.delegates.rollout.RolloutVariables.REPLICA_SET;
import static com.statefulcvm.delegates.rollout.RolloutVariables.SLOT;

/** What every per-slot step starts from: the set's spec and the slot's CVM as Phala reports it now. */
@Component
class SlotReader {

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;

    SlotReader(ReplicaSets replicaSets, PhalaCloudClient phala) {
        this.replicaSets = replicaSets;
        this.phala = phala;
    }

    SlotStep read(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
        String slot = (String) execution.getVariable(SLOT);
        return new SlotStep(spec, slot, phala.getCvm(replicaSets.cvmIdOf(spec, slot)));
    }
}
