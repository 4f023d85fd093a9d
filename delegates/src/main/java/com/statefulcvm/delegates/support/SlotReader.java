package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;


/**
 * What every per-slot step starts from: the set's spec and the slot's CVM as Phala reports it now. Every procedure
 * names its set {@code replicaSet} and its slot {@code slot}.
 */
@Component
public class SlotReader {

    private static final String REPLICA_SET = "replicaSet";
    private static final String SLOT = "slot";

    private final ReplicaSets replicaSets;
    private final PhalaCloudClient phala;

    public SlotReader(ReplicaSets replicaSets, PhalaCloudClient phala) {
        this.replicaSets = replicaSets;
        this.phala = phala;
    }

    public SlotStep read(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
        String slot = (String) execution.getVariable(SLOT);
        return new SlotStep(spec, slot, phala.getCvm(replicaSets.cvmIdOf(spec, slot)));
    }
}
