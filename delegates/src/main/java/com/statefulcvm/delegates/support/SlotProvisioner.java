package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.InstanceCreator;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.SlotSpec;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;

/**
 * Creates and deletes the CVM of one slot, deciding from what Phala shows, and asking each at most once per intention
 * ({@link PhalaEffects}), so that a job that runs again after a crash never creates a second CVM or deletes a new one.
 */
@Component
public class SlotProvisioner {

    private static final Logger log = LoggerFactory.getLogger(SlotProvisioner.class);

    /**
     * How long one job goes on retrying a create the service refuses while another CVM of the workspace is being
     * created; after that the job fails and the engine retries it (failedJobRetryTimeCycle).
     */
    static final Duration CREATE_WAIT_IN_A_JOB = Duration.ofSeconds(30);

    private final PhalaEffects effects;
    private final ReplicaSets replicaSets;
    private final InstanceCreator creator;
    private final OnChainRegistrations onChain;

    public SlotProvisioner(PhalaEffects effects, ReplicaSets replicaSets, PhalaCloudClient phala, OnChainRegistrations onChain) {
        this.effects = effects;
        this.replicaSets = replicaSets;
        this.creator = new InstanceCreator(phala);
        this.onChain = onChain;
    }

    /**
     * A new CVM named after the slot under the set's app, on the slot's node when its override names one
     * ({@link ReplicaSetSpec#slotSpec}). {@code compose} null copies the app's template. An on-chain KMS app's 465 is
     * committed with the procedure's registration of that compose hash, or asks for one ({@link OnChainRegistrations}:
     * the Tasklist task inside a rollout's slot update, an incident naming what to register elsewhere).
     * @return what happened, in words for the process's {@code stage} variable
     */
    public String ensureCreated(DelegateExecution execution, EffectScope scope, ReplicaSetSpec spec, String slot,
                                Optional<CvmInfo> existing, String compose) {
        if (existing.isPresent()) {
            return "CVM " + slot + " exists (" + existing.get().status() + "); not created again";
        }
        SlotSpec slotSpec = spec.slotSpec(replicaSets.ordinalOf(spec, slot));
        Long nodeId = slotSpec.nodeId() == null ? null : slotSpec.nodeId().longValue();
        AppInstanceRequest request = AppInstanceRequest.of(nodeId, compose, null);
        EffectOutcome outcome = onChain.send(execution, slot,
                () -> effects.create(scope, () -> create(spec, slot, request, CREATE_WAIT_IN_A_JOB)),
                (required, transaction) -> effects.create(scope, () -> create(spec, slot,
                        request.committing(required.commitToken(), required.composeHash(), transaction), CREATE_WAIT_IN_A_JOB)));
        if (outcome.kind() == EffectOutcome.Kind.REQUESTED) {
            log.info("Created CVM {} in slot of replica set '{}'{}", slot, spec.getName(),
                    slotSpec.nodeId() == null ? "" : " on node " + slotSpec.nodeId());
        }
        return "CVM " + slot + ": " + outcome.text() + (slotSpec.nodeId() == null ? "" : " on node " + slotSpec.nodeId());
    }

    /**
     * Creates the slot's CVM one at a time with the workspace's other creates, waits until Phala lists it and names it
     * after the slot ({@link InstanceCreator}: the SDK's create has no name); {@code maxWait} bounds the retries of the
     * service's busy answer. A CVM an interrupted create left unnamed in the set's own app is named instead.
     */
    public CvmInfo create(ReplicaSetSpec spec, String slot, SlotSpec slotSpec, String compose, String encryptedEnv,
                          Duration maxWait) {
        Long nodeId = slotSpec.nodeId() == null ? null : slotSpec.nodeId().longValue();
        return create(spec, slot, AppInstanceRequest.of(nodeId, compose, encryptedEnv), maxWait);
    }

    private CvmInfo create(ReplicaSetSpec spec, String slot, AppInstanceRequest request, Duration maxWait) {
        return creator.create(replicaSets.appId(spec), slot, request, replicaSets.orphanOf(spec), maxWait);
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
