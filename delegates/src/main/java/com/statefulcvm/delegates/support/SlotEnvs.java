package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Revision;
import com.statefulcvm.connectors.phala.model.RevisionDetail;
import com.statefulcvm.connectors.phala.model.RevisionPage;
import com.statefulcvm.delegates.procedure.EnvDriftDecisionStarter;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.drift.EnvComparison;
import com.statefulcvm.fleet.drift.EnvRegistry;
import com.statefulcvm.fleet.drift.EnvValue;
import com.statefulcvm.fleet.drift.SlotEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The env each slot's CVM runs, as Phala's revisions show it: the newest revision of the CVM carries the ciphertext it
 * was deployed with, so an env changed behind our back (Terraform, the CLI, the dashboard: the values change, the
 * compose hash does not) is a ciphertext nobody here sent or accepted. Looked at on every attestation of a boot (an
 * env update restarts the CVM); a drift starts the set's decision (decide-env-drift.bpmn) and touches nothing.
 */
@Component
public class SlotEnvs {

    private static final Logger log = LoggerFactory.getLogger(SlotEnvs.class);
    /** Revisions are read newest first, a page at a time, until the CVM's newest is found. */
    private static final int PAGE = 100;
    private static final int MAX_PAGES = 5;

    private final PhalaCloudClient phala;
    private final EnvRegistry registry;
    private final EnvDriftDecisionStarter decisions;
    private final Clock clock;

    public SlotEnvs(PhalaCloudClient phala, EnvRegistry registry, EnvDriftDecisionStarter decisions, Clock clock) {
        this.phala = phala;
        this.registry = registry;
        this.decisions = decisions;
        this.clock = clock;
    }

    /**
     * Compares the env the slot's CVM runs with the recorded one and records the outcome; a new drift starts the set's
     * decision. What Phala could not answer is said in the answer, and the next boot's attestation looks again; a failed
     * write fails the step (its transaction could not commit it anyway).
     *
     * @return one line for the attestation's checks
     */
    public String check(ReplicaSetSpec spec, String appId, int ordinal, CvmInfo cvm) {
        Optional<EnvValue> running;
        try {
            running = running(appId, cvm);
        } catch (RuntimeException unreadable) {
            log.warn("'{}' slot {}: the env it runs could not be read, compared at its next boot: {}", spec.getName(), ordinal, unreadable.toString());
            return "env: not compared (" + unreadable.getMessage() + ")";
        }
        if (running.isEmpty()) {
            return "env: not compared (no revision of CVM " + cvm.name() + " in its app's newest " + PAGE * MAX_PAGES + ")";
        }
        EnvComparison.Judgement judged = EnvComparison.judge(spec.getName(), ordinal, cvm.vmUuid(),
                registry.slot(spec.getName(), ordinal), running.get());
        if (judged.changed()) {
            registry.save(judged.next());
            if (judged.verdict() == EnvComparison.Verdict.DRIFTED) {
                log.warn("'{}' slot {}: {}", spec.getName(), ordinal, judged.summary());
                decisions.ensureRunning(spec.getName());
            }
        }
        return judged.summary();
    }

    /** Records the env we asked Phala to give the slot's CVM: once seen running it is the slot's known env. */
    public void sent(String replicaSet, int ordinal, CvmInfo cvm, String encryptedEnv, List<String> keys, String source) {
        EnvValue sent = EnvValue.of(encryptedEnv, keys, source, clock.instant());
        SlotEnv slot = registry.slot(replicaSet, ordinal).orElse(new SlotEnv(replicaSet, ordinal, cvm.vmUuid(), null, null, null));
        registry.save(slot.withSent(sent));
    }

    /** The env the CVM runs: its newest revision's ciphertext, the compose's allowed env names; empty when none is found. */
    Optional<EnvValue> running(String appId, CvmInfo cvm) {
        for (int page = 1; page <= MAX_PAGES; page++) {
            RevisionPage revisions = phala.listRevisions(appId, page, PAGE);
            List<Revision> listed = revisions.revisions() == null ? List.of() : revisions.revisions();
            Optional<Revision> newest = listed.stream().filter(r -> cvm.vmUuid() != null && cvm.vmUuid().equals(r.vmUuid())).findFirst();
            if (newest.isPresent()) {
                RevisionDetail detail = phala.getRevision(appId, newest.get().revisionId());
                return Optional.of(EnvValue.of(detail.encryptedEnv(), allowedEnvs(cvm), describe(detail), clock.instant()));
            }
            if (listed.size() < PAGE || (revisions.totalPages() != null && page >= revisions.totalPages())) {
                break;
            }
        }
        return Optional.empty();
    }

    private static List<String> allowedEnvs(CvmInfo cvm) {
        return cvm.composeFile() == null || cvm.composeFile().allowedEnvs() == null ? List.of() : cvm.composeFile().allowedEnvs();
    }

    /** "update_env by alice at 2026-12-02T10:00:00Z (revision r9)". */
    private static String describe(RevisionDetail r) {
        String by = r.triggeredBy() == null || r.triggeredBy().username() == null ? "the platform" : r.triggeredBy().username();
        return r.operationType() + " by " + by + " at " + r.createdAt() + " (revision " + r.revisionId() + ")";
    }
}
