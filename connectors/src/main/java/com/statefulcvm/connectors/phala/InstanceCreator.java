package com.statefulcvm.connectors.phala;

import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.CommitRequest;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates CVMs the way the service needs it, one at a time. A new app: {@link #createApp}. One named CVM under an
 * app: {@link #create}:
 * <ol>
 * <li>a CVM with that name already there is the answer (a create that ran before);</li>
 * <li>{@code POST /apps/{id}/instances} as the SDK sends it (no name). The 400 "configuration parameters not
 *     compatible" that a create meets while another CVM of the workspace is being created is retried with backoff
 *     until {@code maxWait}; a failure of unknown outcome (5xx, timeout after sending) is reconciled by reading the
 *     app's CVMs back: a CVM that was not there before is this create's, and is not created again;</li>
 * <li>it waits until the new CVM is accepted (listed under the app), then gives it its name
 *     ({@code PATCH /cvms/{id}/name}).</li>
 * </ol>
 * A CVM of the app that {@code isOrphan} accepts (created by an earlier attempt that ended before naming it) is named
 * instead of creating another one.
 */
public final class InstanceCreator {

    private static final Logger log = LoggerFactory.getLogger(InstanceCreator.class);
    /** The observed refusal of a create while another is under way (Phala-Network/phala-cloud issue #247). */
    static final String CREATE_BUSY = "not compatible";
    static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

    private final PhalaCloudClient phala;
    private final Sleeper sleeper;
    private final Clock clock;
    private final Duration initialBackoff;
    private final Duration maxBackoff;

    /**
     * The first retry of the busy answer comes soon (a create is busy only while the previous CVM is being created,
     * often well under a second); the waits double from there, so a long creation costs a handful of calls.
     */
    public InstanceCreator(PhalaCloudClient phala) {
        this(phala, Sleeper.REAL, Clock.systemUTC(), FIRST_BACKOFF, Duration.ofSeconds(10));
    }

    InstanceCreator(PhalaCloudClient phala, Sleeper sleeper, Clock clock, Duration initialBackoff, Duration maxBackoff) {
        this.phala = phala;
        this.sleeper = sleeper;
        this.clock = clock;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    /** Whether the service refused a create because another CVM of the workspace is being created. */
    public static boolean isCreateBusy(PhalaApiException e) {
        return e.status() == 400 && e.apiMessage() != null && e.apiMessage().contains(CREATE_BUSY);
    }

    /**
     * @param isOrphan a CVM of the app that an earlier, interrupted create of this name left unnamed (none: {@code cvm -> false})
     * @param maxWait  how long to go on retrying the busy 400 and waiting for the CVM to be listed
     * @return the CVM, named
     * @throws PhalaApiException when the service refuses, or still answers busy after {@code maxWait}
     */
    public CvmInfo create(String appId, String name, AppInstanceRequest request, Predicate<CvmInfo> isOrphan,
                          Duration maxWait) {
        Objects.requireNonNull(name, "name");
        Instant deadline = clock.instant().plus(maxWait);
        List<CvmInfo> before = phala.listAppCvms(appId);
        Optional<CvmInfo> named = byName(before, name);
        if (named.isPresent()) {
            return named.get();
        }
        Optional<CvmInfo> orphan = before.stream().filter(isOrphan).findFirst();
        if (orphan.isPresent()) {
            log.info("CVM {} ({}) of app {} was created for {} and never named; naming it instead of creating another",
                    orphan.get().name(), orphan.get().vmUuid(), appId, name);
            return named(appId, name, orphan.get());
        }
        Set<String> existing = before.stream().map(CvmInfo::vmUuid).filter(Objects::nonNull).collect(Collectors.toSet());
        CvmInfo created = send(appId, request, existing, deadline);
        Predicate<CvmInfo> theNewOne = created.vmUuid() != null
                ? cvm -> created.vmUuid().equalsIgnoreCase(cvm.vmUuid())
                : cvm -> cvm.vmUuid() != null && !existing.contains(cvm.vmUuid());
        CvmInfo accepted = awaitListed(appId, theNewOne, String.valueOf(created.vmUuid()), deadline);
        return named(appId, name, accepted);
    }

    /**
     * A new app and its first CVM ({@code POST /cvms/provision}, then {@code POST /cvms}), the first named as the
     * request's name. Both calls are retried while the service answers busy; a commit of unknown outcome is read back
     * ({@code GET /apps/{id}}) before it is sent again. Waits until the app lists its CVM.
     *
     * @return the provision's answer (the app id, the compose hash, the env key and the KMS it comes from)
     */
    public ProvisionResult createApp(ProvisionRequest request, Duration maxWait) {
        Instant deadline = clock.instant().plus(maxWait);
        ProvisionResult provisioned = whileBusy(() -> phala.provision(request), deadline);
        CommitRequest commit = new CommitRequest(provisioned.appId(), provisioned.composeHash(), null, null);
        for (int attempt = 0; ; attempt++) {
            try {
                whileBusy(() -> phala.commitProvision(commit), deadline);
                break;
            } catch (PhalaApiException e) {
                if (!e.isOutcomeUnknown()) {
                    throw e;
                }
                if (appExists(provisioned.appId())) {
                    log.info("Commit of app {} failed ({}), but the app exists: it is this commit's",
                            provisioned.appId(), e.getMessage());
                    break;
                }
                Duration wait = backoff(attempt);
                if (clock.instant().plus(wait).isAfter(deadline)) {
                    throw e;
                }
                log.info("Commit of app {} failed ({}) and the app does not exist; sending it again", provisioned.appId(),
                        e.getMessage());
                sleep(wait);
            }
        }
        awaitListed(provisioned.appId(), cvm -> request.name().equals(cvm.name()), request.name(), deadline);
        return provisioned;
    }

    /** Calls {@code create} again with backoff while the service answers busy, until {@code deadline}. */
    private <T> T whileBusy(java.util.function.Supplier<T> create, Instant deadline) {
        for (int attempt = 0; ; attempt++) {
            try {
                return create.get();
            } catch (PhalaApiException e) {
                Duration wait = backoff(attempt);
                if (!isCreateBusy(e) || clock.instant().plus(wait).isAfter(deadline)) {
                    throw e;
                }
                log.info("Create not taken now ({}); trying again in {} ms", e.getMessage(), wait.toMillis());
                sleep(wait);
            }
        }
    }

    private boolean appExists(String appId) {
        try {
            return !phala.listAppCvms(appId).isEmpty();
        } catch (PhalaApiException e) {
            if (e.isNotFound()) {
                return false;
            }
            throw e;
        }
    }

    private CvmInfo send(String appId, AppInstanceRequest request, Set<String> existing, Instant deadline) {
        for (int attempt = 0; ; attempt++) {
            try {
                return phala.createAppInstance(appId, request);
            } catch (PhalaApiException e) {
                if (e.isOutcomeUnknown()) {
                    Optional<CvmInfo> arrived = newCvm(appId, existing);
                    if (arrived.isPresent()) {
                        log.info("Create under app {} failed ({}), but CVM {} arrived: it is this create's", appId,
                                e.getMessage(), arrived.get().vmUuid());
                        return arrived.get();
                    }
                    log.info("Create under app {} failed ({}) and nothing arrived; sending it again", appId, e.getMessage());
                } else if (!isCreateBusy(e)) {
                    throw e;
                }
                Duration wait = backoff(attempt);
                if (clock.instant().plus(wait).isAfter(deadline)) {
                    throw e;
                }
                log.info("Create under app {} not taken now ({}); trying again in {} ms", appId, e.getMessage(), wait.toMillis());
                sleep(wait);
            }
        }
    }

    /** The created CVM as the app lists it (the create's answer is the VM record, without the hashed id). */
    private CvmInfo awaitListed(String appId, Predicate<CvmInfo> match, String what, Instant deadline) {
        for (int attempt = 0; ; attempt++) {
            Optional<CvmInfo> found = phala.listAppCvms(appId).stream().filter(match).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            Duration wait = backoff(attempt);
            if (clock.instant().plus(wait).isAfter(deadline)) {
                throw new PhalaApiException(0, null, "the new CVM " + what + " was not listed under app " + appId
                        + " in time", null, "GET", "/apps/" + AppIds.bare(appId) + "/cvms", null);
            }
            sleep(wait);
        }
    }

    private CvmInfo named(String appId, String name, CvmInfo cvm) {
        if (!name.equals(cvm.name())) {
            phala.renameCvm(cvm.id(), name);
            log.info("Named CVM {} ({}) of app {} {}", cvm.id(), cvm.vmUuid(), appId, name);
        }
        return byName(phala.listAppCvms(appId), name).orElse(cvm);
    }

    private Optional<CvmInfo> newCvm(String appId, Set<String> existing) {
        return phala.listAppCvms(appId).stream()
                .filter(c -> c.vmUuid() != null && !existing.contains(c.vmUuid()))
                .findFirst();
    }

    private static Optional<CvmInfo> byName(List<CvmInfo> cvms, String name) {
        return cvms.stream().filter(c -> name.equals(c.name())).findFirst();
    }

    private Duration backoff(int attempt) {
        long factor = 1L << Math.min(attempt, 20);
        Duration wait = initialBackoff.multipliedBy(factor);
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }

    private void sleep(Duration wait) {
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PhalaApiException(0, null, "interrupted while waiting to create a CVM", null, "POST",
                    "/apps/{id}/instances", e);
        }
    }
}
