package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.CvmState;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.admission.BootMarker;
import com.statefulcvm.fleet.effects.EffectIntent;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What Phala shows about an intent whose call may or may not have taken: the CVM's status, its operation in progress,
 * its compose, and when its current boot began or its last run ended (uptime and exited_at, against the moment the
 * intent was recorded). A sign that the CVM changed the way the effect changes it, since the intent, counts as the
 * effect having taken; the other way round only a CVM that has plainly not changed since says it did not. Anything
 * in between is {@link Verdict#UNKNOWN}, and the step waits instead of asking again.
 */
final class EffectEvidence {

    enum Verdict { APPLIED, NOT_APPLIED, UNKNOWN }

    record Finding(Verdict verdict, String reason) {
    }

    private final PhalaCloudClient phala;
    private final Clock clock;

    EffectEvidence(PhalaCloudClient phala, Clock clock) {
        this.phala = phala;
        this.clock = clock;
    }

    Finding look(EffectIntent intent) {
        Optional<CvmInfo> found = find(intent);
        String name = intent.slot();
        switch (intent.effect()) {
            case CREATE -> {
                return found.map(c -> finding(Verdict.APPLIED, "CVM " + name + " exists (" + c.status() + ")"))
                        .orElseGet(() -> finding(Verdict.NOT_APPLIED, "Phala has no CVM named " + name));
            }
            case DELETE -> {
                if (found.isEmpty()) {
                    return finding(Verdict.APPLIED, "the CVM of " + name + " is gone");
                }
                if ("deleting".equals(found.get().status())) {
                    return finding(Verdict.APPLIED, "the CVM of " + name + " is being deleted");
                }
                return found.get().isSettled() ? finding(Verdict.NOT_APPLIED, "the CVM of " + name + " is still there, " + found.get().status())
                        : finding(Verdict.UNKNOWN, "the CVM of " + name + " is busy: " + found.get().status());
            }
            default -> {
                if (found.isEmpty()) {
                    return finding(Verdict.UNKNOWN, "the CVM of " + name + " is gone");
                }
                return lookAt(intent, found.get());
            }
        }
    }

    private Finding lookAt(EffectIntent intent, CvmInfo cvm) {
        String status = cvm.status();
        String marker = switch (intent.effect()) {
            case RESTART -> "restarting";
            case START -> "starting";
            case STOP -> "stopping";
            case SHUTDOWN -> "shutting_down";
            case UPDATE_COMPOSE, UPDATE_ENV -> "updating";
            default -> null;
        };
        if (status != null && status.equals(marker)) {
            return finding(Verdict.APPLIED, "CVM " + cvm.name() + " is " + status);
        }
        if (!cvm.isSettled()) {
            return finding(Verdict.UNKNOWN, "CVM " + cvm.name() + " is busy (" + status + "); looking again once it settles");
        }
        if (intent.effect() == com.statefulcvm.fleet.effects.Effect.UPDATE_COMPOSE && intent.target() != null
                && cvm.dockerCompose() != null && intent.target().equals(ComposeText.digest(cvm.dockerCompose()))) {
            return finding(Verdict.APPLIED, "CVM " + cvm.name() + " runs the target compose");
        }
        Instant since = intent.intendedAt().minus(BootMarker.TOLERANCE);
        boolean running = cvm.isRunning();
        boolean stopped = "stopped".equals(status);
        Optional<Instant> changedAt = running ? bootedAt(cvm) : stopped ? exitedAt(cvm) : Optional.empty();
        if (changedAt.isEmpty()) {
            return finding(Verdict.UNKNOWN, "CVM " + cvm.name() + " is " + status + "; when it last " + (running ? "booted" : "stopped")
                    + " cannot be read");
        }
        boolean changedSince = !changedAt.get().isBefore(since);
        String when = (running ? "booted " : "stopped ") + changedAt.get() + (changedSince ? ", after" : ", before") + " the intent";
        Verdict verdict = switch (intent.effect()) {
            // a start that took and a CVM that went down again since: the start is not made twice
            case START -> running || changedSince ? Verdict.APPLIED : Verdict.NOT_APPLIED;
            case STOP, SHUTDOWN -> stopped || changedSince ? Verdict.APPLIED : Verdict.NOT_APPLIED;
            // these end in a new boot (an env or compose update restarts the CVM), or in a CVM that went down after it
            case RESTART, UPDATE_COMPOSE, UPDATE_ENV -> changedSince ? Verdict.APPLIED : Verdict.NOT_APPLIED;
            default -> Verdict.UNKNOWN;
        };
        return finding(verdict, "CVM " + cvm.name() + " is " + status + ", " + when);
    }

    /** True when the CVM's current boot began after {@code moment} (beyond the tolerance of Phala's uptime). */
    boolean bootedSince(CvmInfo cvm, Instant moment) {
        return moment != null && bootedAt(cvm).map(boot -> boot.isAfter(moment.plus(BootMarker.TOLERANCE))).orElse(false);
    }

    private Optional<CvmInfo> find(EffectIntent intent) {
        for (String ref : new String[] {intent.cvm(), intent.slot()}) {
            if (ref == null) {
                continue;
            }
            try {
                return Optional.of(phala.getCvm(ref));
            } catch (PhalaApiException e) {
                if (!e.isNotFound()) {
                    throw e;
                }
            }
        }
        return Optional.empty();
    }

    private Optional<Instant> bootedAt(CvmInfo cvm) {
        return BootMarker.bootedAt(clock.instant(), state(cvm).uptime());
    }

    private Optional<Instant> exitedAt(CvmInfo cvm) {
        String exited = state(cvm).exitedAt();
        if (exited == null || exited.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(exited));
        } catch (DateTimeParseException e) {
            try {
                return Optional.of(java.time.OffsetDateTime.parse(exited).toInstant());
            } catch (DateTimeParseException again) {
                return Optional.empty();
            }
        }
    }

    private CvmState state(CvmInfo cvm) {
        return phala.getCvmState(cvm.id());
    }

    private static Finding finding(Verdict verdict, String reason) {
        return new Finding(verdict, reason);
    }
}
