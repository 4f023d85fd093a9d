package com.statefulcvm.delegates.attestation;

import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.Attestation;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.Slots;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.fleet.admission.AppCompose;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The compose hashes a CVM may measure when it runs what we intend, computed from our own records, never taken from what
 * Phala reports: the composes we intend are the set's current and update revisions and the target of every procedure
 * in the call chain (the rollout's or scale's {@code targetCompose}). Each is put into dstack's app-compose form: the
 * app compose the CVM publishes (its attestation's {@code tcb_info.app_compose}, else its {@code compose_file}) with
 * its {@code docker_compose_file} replaced by ours and no pre-launch script, hashed as dstack hashes it
 * ({@link AppCompose}). A CVM re-composed behind our back (another compose, a pre-launch script) measures another hash and
 * is refused. The other fields of the app compose (flags, allowed envs, name) are taken as published.
 */
@Component
public class ExpectedComposeHashes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PhalaCloudClient phala;
    private final RevisionHistory revisions;
    private final Adoptions adoptions;

    public ExpectedComposeHashes(PhalaCloudClient phala, RevisionHistory revisions, Adoptions adoptions) {
        this.phala = phala;
        this.revisions = revisions;
        this.adoptions = adoptions;
    }

    /**
     * @param problem   why none could be computed (the app compose is not published), null when {@code hashes} holds them
     * @param published the docker compose the CVM publishes it runs, with the hashes of its whole app compose as published:
     *                  what it runs only if the attested compose hash is one of them (Phala's report alone proves nothing);
     *                  null when none is published, or when a pre-launch script runs beside it (adopting the compose alone
     *                  would not be what runs)
     */
    public record Expected(Set<String> hashes, Set<String> intended, String problem, Published published) {

        Expected(Set<String> hashes, Set<String> intended, String problem) {
            this(hashes, intended, problem, null);
        }
    }

    /** A published docker compose and the hashes its app compose may have been measured as. */
    public record Published(String dockerCompose, Set<String> hashes) {

        /** The compose the CVM runs, when its attested compose hash proves the published one is it; else null. */
        public String ifMeasured(String attestedComposeHash) {
            return attestedComposeHash != null && hashes.stream().anyMatch(h -> h.equalsIgnoreCase(attestedComposeHash)) ? dockerCompose : null;
        }
    }

    public Expected of(ReplicaSetSpec spec, CvmInfo cvm, DelegateExecution execution) {
        Map<String, String> intended = intended(spec, cvm.name(), execution);
        if (intended.isEmpty()) {
            return new Expected(Set.of(), Set.of(), "no revision of " + spec.getName() + " is recorded: nothing is intended yet");
        }
        Map<String, Object> published;
        try {
            published = published(cvm);
        } catch (PhalaApiException | IllegalArgumentException e) {
            return new Expected(Set.of(), intended.keySet(), "the app compose of " + cvm.name() + " could not be read: " + e.getMessage());
        }
        if (published == null) {
            return new Expected(Set.of(), intended.keySet(), "Phala publishes no app compose for " + cvm.name());
        }
        Object publishedCompose = published.get("docker_compose_file");
        Set<String> hashes = new LinkedHashSet<>();
        for (String compose : intended.values()) {
            Map<String, Object> ours = new LinkedHashMap<>(published);
            // the compose as published when it is ours but for line ends and trailing white space
            ours.put("docker_compose_file", publishedCompose instanceof String text && ComposeText.same(text, compose) ? text : compose);
            ours.remove("pre_launch_script");
            ours.remove("bash_script");
            hashes.addAll(AppCompose.hashes(ours));
        }
        return new Expected(hashes, intended.keySet(), null, publishedOf(published));
    }

    /**
     * What the CVM publishes it runs (its app compose from the attestation endpoint), whatever we intend: an adoption
     * takes it as the set's first revision once the CVM's evidence measures one of its hashes. Null when nothing is
     * published or a pre-launch script runs beside the compose.
     *
     * @throws PhalaApiException        when Phala cannot be read
     * @throws IllegalArgumentException when the published app compose is not JSON
     */
    public Published publishedBy(CvmInfo cvm) {
        Map<String, Object> published = published(cvm);
        return published == null ? null : publishedOf(published);
    }

    private static Published publishedOf(Map<String, Object> published) {
        boolean scriptBeside = published.get("pre_launch_script") instanceof String script && !script.isEmpty()
                || published.containsKey("bash_script");
        return published.get("docker_compose_file") instanceof String text && !scriptBeside
                ? new Published(text, AppCompose.hashes(published)) : null;
    }

    /**
     * label to compose text: the set's current and update revisions, the one the slot ran when its mixed set was
     * adopted (until a rollout converges it), and each procedure's target up the call chain.
     */
    private Map<String, String> intended(ReplicaSetSpec spec, String slot, DelegateExecution execution) {
        Map<String, String> intended = new LinkedHashMap<>();
        revisions.currentRevision(spec.getName()).filter(r -> r.dockerCompose() != null)
                .ifPresent(r -> intended.put("revision " + r.number() + " (current)", r.dockerCompose()));
        revisions.updateRevision(spec.getName()).filter(r -> r.dockerCompose() != null)
                .ifPresent(r -> intended.putIfAbsent("revision " + r.number() + " (update)", r.dockerCompose()));
        OptionalInt ordinal = Slots.ordinalOf(spec.getName(), slot);
        if (ordinal.isPresent()) {
            adoptions.adoption(spec.getName()).flatMap(a -> a.otherRevisionOf(ordinal.getAsInt()))
                    .flatMap(n -> revisions.revision(spec.getName(), n)).filter(r -> r.dockerCompose() != null)
                    .ifPresent(r -> intended.putIfAbsent("revision " + r.number() + " (what " + slot + " ran when adopted)", r.dockerCompose()));
        }
        for (DelegateExecution level = execution.getProcessInstance(); level != null;
             level = level.getSuperExecution() == null ? null : level.getSuperExecution().getProcessInstance()) {
            Object target = level.getVariable(ProcedureVariables.TARGET_COMPOSE);
            if (target instanceof String text && !text.isBlank() && !intended.containsValue(text)) {
                intended.put("the target of " + level.getProcessInstanceId(), text);
            }
        }
        return intended;
    }

    private Map<String, Object> published(CvmInfo cvm) {
        Attestation attestation = phala.getAttestation(cvm.id());
        String text = attestation == null ? null
                : attestation.tcbInfo() != null && attestation.tcbInfo().appCompose() != null ? attestation.tcbInfo().appCompose()
                : attestation.composeFile();
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return JSON.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the published app compose is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }
}
