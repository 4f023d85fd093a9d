package com.statefulcvm.delegates.procedure;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static com.statefulcvm.delegates.procedure.HealVariables.businessKey;

/**
 * Starts admit-instance.bpmn (message {@code AdmitInstance}, business key {@code <set>/<ordinal>}) for a running
 * instance the health monitor found without a valid attestation of its current boot, unless one runs for it already.
 * The process re-attests it through attest-instance.bpmn, which fences it when it fails.
 */
@Component
public class AdmissionStarter {

    private static final Logger log = LoggerFactory.getLogger(AdmissionStarter.class);


    private final RuntimeService runtime;
    private final RevisionHistory revisions;

    public AdmissionStarter(RuntimeService runtime, RevisionHistory revisions) {
        this.runtime = runtime;
        this.revisions = revisions;
    }

    /** The running re-attestations of the set, by business key. */
    public Map<String, String> running(String replicaSet) {
        Map<String, String> byKey = new HashMap<>();
        for (ProcessInstance admit : runtime.createProcessInstanceQuery().processDefinitionKey(AttestationVariables.ADMIT_PROCESS)
                .processInstanceBusinessKeyLike(replicaSet + "/%").unlimitedList()) {
            byKey.putIfAbsent(admit.getBusinessKey(), admit.getId());
        }
        return byKey;
    }

    /** The running re-attestations of many sets at once (every one present, by set and then business key); one query. */
    public Map<String, Map<String, String>> running(Collection<String> replicaSets) {
        Map<String, Map<String, String>> bySet = new HashMap<>();
        replicaSets.forEach(set -> bySet.put(set, new HashMap<>()));
        for (ProcessInstance admit : runtime.createProcessInstanceQuery().processDefinitionKey(AttestationVariables.ADMIT_PROCESS).unlimitedList()) {
            String key = admit.getBusinessKey();
            int slash = key == null ? -1 : key.lastIndexOf('/');
            Map<String, String> of = slash < 0 ? null : bySet.get(key.substring(0, slash));
            if (of != null) {
                of.putIfAbsent(key, admit.getId());
            }
        }
        return bySet;
    }

    /**
     * @param running from {@link #running} in the same transaction; the started one is added to it
     * @return the process instance id of the re-attestation now running for the instance
     */
    public String start(ReplicaSetSpec spec, int ordinal, CvmInfo cvm, String reason, Map<String, String> running) {
        String key = businessKey(spec.getName(), ordinal);
        String already = running.get(key);
        if (already != null) {
            return already;
        }
        Map<String, Object> variables = new HashMap<>();
        variables.put(AttestationVariables.REPLICA_SET, spec.getName());
        variables.put(AttestationVariables.ORDINAL, ordinal);
        variables.put(AttestationVariables.SLOT, spec.slotName(ordinal));
        variables.put(AttestationVariables.ADMISSION_REASON, reason);
        // the identity Phala reports for the slot now: the quote must carry the same one
        variables.put(AttestationVariables.BOUND_INSTANCE_ID, cvm.instanceId());
        variables.put(AttestationVariables.ALLOWED_COMPOSE_HASHES, allowedComposeHashes(spec.getName()));
        ProcessInstance admit = runtime.createMessageCorrelation(AttestationVariables.ADMIT_MESSAGE).processInstanceBusinessKey(key)
                .setVariables(variables).correlateStartMessage();
        running.put(key, admit.getId());
        log.info("Re-attesting {} ({}): {}", spec.slotName(ordinal), admit.getId(), reason);
        return admit.getId();
    }

    /** The set's current and update revisions (attest-instance adds the one Phala reports the CVM runs). */
    private ArrayList<String> allowedComposeHashes(String set) {
        Set<String> hashes = new LinkedHashSet<>();
        revisions.currentRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        revisions.updateRevision(set).map(Revision::composeHash).ifPresent(hashes::add);
        hashes.removeIf(Objects::isNull);
        return new ArrayList<>(hashes);
    }
}
