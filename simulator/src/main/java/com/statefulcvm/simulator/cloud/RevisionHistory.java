package com.statefulcvm.simulator.cloud;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.VmUuidsRequest;

/**
 * The revisions of every app: one for each compose a CVM of the app took, and the redeploy that rolls CVMs back or
 * forward to one of them. Used only under {@link SimulatedCloud}'s lock.
 */
final class RevisionHistory {

    private static final String TRIGGERED_BY = "api";

    private final Clock clock;
    private final CvmDirectory directory;
    private final OperationRunner runner;

    RevisionHistory(Clock clock, CvmDirectory directory, OperationRunner runner) {
        this.clock = clock;
        this.directory = directory;
        this.runner = runner;
    }

    /** Records the CVM's compose as the app's latest revision: what new instances copy from now on. */
    void record(SimulatedApp app, SimulatedCvm cvm, String operationType) {
        app.revisions.add(new AppRevision(Ids.revisionId(), app.appId, cvm.vmUuid, cvm.composeHash,
                cvm.composeFile, now(), operationType, TRIGGERED_BY, cvm.encryptedEnv));
        app.currentCompose = cvm.composeFile;
        app.currentComposeHash = cvm.composeHash;
    }

    AppRevision require(SimulatedApp app, String revisionId) {
        return app.revisions.stream()
                .filter(r -> r.revisionId().equals(revisionId))
                .findFirst()
                .orElseThrow(() -> ApiException.notFound("Revision"));
    }

    /** Rolls the chosen CVMs of the app to a revision's compose; each is updated, on it already or not. */
    UpdateOutcome redeploy(String appId, String revisionId, VmUuidsRequest request) {
        SimulatedApp app = directory.requireApp(appId);
        AppRevision revision = require(app, revisionId);
        if (request == null || request.vmUuids() == null) {
            throw ApiException.missing("vm_uuids");
        }
        if (request.vmUuids().isEmpty()) {
            throw ApiException.unprocessable(List.of("body", "vm_uuids"),
                    "List should have at least 1 item after validation, not 0", "too_short");
        }
        List<SimulatedCvm> targets = new ArrayList<>();
        for (String ref : request.vmUuids()) {
            SimulatedCvm cvm = directory.cvmsOf(app).stream()
                    .filter(c -> ref != null && c.matches(ref.trim()))
                    .findFirst()
                    .orElseThrow(() -> ApiException.notFound("CVM"));
            CvmLifecycle.checkAccepts(cvm, OperationType.REDEPLOY);
            if (!targets.contains(cvm)) {
                targets.add(cvm);
            }
        }
        String correlationId = Ids.uuid();
        for (SimulatedCvm cvm : targets) {
            boolean changed = !revision.composeHash().equals(cvm.composeHash);
            cvm.composeFile = new TreeMap<>(revision.compose());
            cvm.composeHash = revision.composeHash();
            if (changed) {
                record(app, cvm, OperationType.REDEPLOY.wireName());
            }
            runner.begin(cvm, OperationType.REDEPLOY, null, correlationId);
        }
        return UpdateOutcome.inProgress(correlationId, false);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
