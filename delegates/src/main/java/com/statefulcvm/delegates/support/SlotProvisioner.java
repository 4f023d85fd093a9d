package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.SlotSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Creates and deletes the CVM of one slot, deciding from what Phala shows, and asking each at most once per intention
 * ({@link PhalaEffects}), so that a job that runs again after a crash never creates a second CVM or deletes a new one.
 */
@Component
public class SlotProvisioner {

    private static final Logger log = LoggerFactory.getLogger(SlotProvisioner.class);

    private final PhalaEffects effects;
    private final ReplicaSets replicaSets;

    public SlotProvisioner(PhalaEffects effects, ReplicaSets replicaSets) {
        this.effects = effects;
        this.replicaSets = replicaSets;
    }

    /**
     * A new CVM named after the slot under the set's app, on the slot's node when its override names one
     * ({@link ReplicaSetSpec#slotSpec}). {@code compose} null copies the app's template.
     * @return what happened, in words for the process's {@code stage} variable
     */
    public String ensureCreated(EffectScope scope, ReplicaSetSpec spec, String slot, Optional<CvmInfo> existing, String compose) {
        return ensureCreated(scope, spec, slot, existing, compose, null);
    }

    /** As above, with the environment already encrypted to the app's key (null: the app template's). */
    public String ensureCreated(EffectScope scope, ReplicaSetSpec spec, String slot, Optional<CvmInfo> existing, String compose,
                                String encryptedEnv) {
        if (existing.isPresent()) {
            return "CVM " + slot + " exists (" + existing.get().status() + "); not created again";
        }
        SlotSpec slotSpec = spec.slotSpec(replicaSets.ordinalOf(spec, slot));
        EffectOutcome outcome = effects.create(scope, replicaSets.appId(spec),
                new AppInstanceRequest(slot, slotSpec.nodeIdText(), compose, null, encryptedEnv, null));
        if (outcome.kind() == EffectOutcome.Kind.REQUESTED) {
            log.info("Created CVM {} in slot of replica set '{}'{}", slot, spec.getName(),
                    slotSpec.nodeId() == null ? "" : " on node " + slotSpec.nodeId());
        }
        return "CVM " + slot + ": " + outcome.text() + (slotSpec.nodeId() == null ? "" : " on node " + slotSpec.nodeId());
    }

    /** Asks Phala to delete the CVM unless it is already being deleted or busy. */
    public String ensureDeleteRequested(EffectScope scope, CvmInfo cvm) {
        if ("deleting".equals(cvm.status())) {
            return "CVM " + cvm.name() + " is being deleted";
        }
        if (!cvm.isSettled()) {
            return "CVM " + cvm.name() + " is busy (" + cvm.status() + "); deleting it once it settles";
        }
        EffectOutcome outcome = effects.delete(scope, cvm);
        if (outcome.kind() == EffectOutcome.Kind.REQUESTED) {
            log.info("Requested deletion of CVM {} ({}, instance {})", cvm.name(), cvm.id(), cvm.instanceId());
        }
        return "deletion of CVM " + cvm.name() + ": " + outcome.text();
    }
}
