package com.statefulcvm.web.bootstrap;

import com.statefulcvm.connectors.phala.InstanceCreator;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.delegates.procedure.AdoptionStarter;
import com.statefulcvm.delegates.support.EffectOutcome;
import com.statefulcvm.delegates.support.EffectScope;
import com.statefulcvm.delegates.support.PhalaEffects;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.SlotProvisioner;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.SlotSpec;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.status.ObservedConditions;
import com.statefulcvm.web.status.RevisionComposeHashes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Once the server is up (the embedded simulator answers through it), creates an app for every replica set that has
 * none yet and the missing slots of those apps; then records what exists. CVMs are created one at a time, each waited
 * for until Phala lists it, and the service's "configuration parameters not compatible" answer to a create while
 * another is under way is retried with backoff ({@link InstanceCreator}): parallel creates in one workspace have failed
 * on the real platform.
 * <p>
 * The server answers while this runs (it must: the embedded simulator is one of its endpoints), but a set being
 * bootstrapped has no app yet, so the application's readiness state ({@code /actuator/health/readiness}) refuses
 * traffic until the bootstrap is over, whatever its outcome: a set that could not be bootstrapped is logged and the
 * rest of the application serves. Spring Boot itself moves readiness to accepting traffic only after every
 * {@link ApplicationReadyEvent} listener, this one included, has returned; the events here say so explicitly, so the
 * readiness state does not depend on that ordering.
 */
@Component
class FleetBootstrap {

    private static final Logger log = LoggerFactory.getLogger(FleetBootstrap.class);

    private final ValidatedFleet fleet;
    private final OrchestratorProperties properties;
    private final PhalaCloudClient phala;
    private final InstanceRegistry registry;
    private final ReplicaSetObserver observer;
    private final ReplicaSets replicaSets;
    private final RevisionHistory revisions;
    private final ObservedConditions conditions;
    private final RevisionComposeHashes composeHashes;
    private final TransactionTemplate transaction;
    private final ApplicationEventPublisher events;
    private final SlotProvisioner provisioner;
    private final InstanceCreator creator;
    private final PhalaEffects effects;
    private final Adoptions adoptions;
    private final AdoptionStarter adoptionStarter;

    FleetBootstrap(ValidatedFleet fleet, OrchestratorProperties properties, PhalaCloudClient phala,
                   InstanceRegistry registry, ReplicaSetObserver observer, ReplicaSets replicaSets, RevisionHistory revisions,
                   ObservedConditions conditions, RevisionComposeHashes composeHashes, PlatformTransactionManager transactions,
                   ApplicationEventPublisher events, SlotProvisioner provisioner, PhalaEffects effects, Adoptions adoptions,
                   AdoptionStarter adoptionStarter) {
        this.effects = effects;
        this.adoptions = adoptions;
        this.adoptionStarter = adoptionStarter;
        this.fleet = fleet;
        this.properties = properties;
        this.phala = phala;
        this.registry = registry;
        this.observer = observer;
        this.replicaSets = replicaSets;
        this.revisions = revisions;
        this.conditions = conditions;
        this.composeHashes = composeHashes;
        this.transaction = new TransactionTemplate(transactions);
        this.events = events;
        this.provisioner = provisioner;
        this.creator = new InstanceCreator(phala);
    }

    @EventListener(ApplicationReadyEvent.class)
    void bootstrap() {
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        try {
            bootstrapEverySet();
        } finally {
            AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
            log.info("Fleet bootstrap done: ready to accept traffic");
        }
    }

    private void bootstrapEverySet() {
        for (ReplicaSetSpec fileSpec : fleet.fleet().getReplicaSets()) {
            if (adoptions.awaitsAdoption(fileSpec)) {
                // an app made elsewhere: what runs becomes its first revision only when an approver adopts it
                observeAndProposeAdoption(fileSpec);
                continue;
            }
            ensureInitialRevision(fileSpec);
            // the desired count: a scale's, while the fleet file still says what it said then (docs/scaling.md)
            ReplicaSetSpec spec = replicaSets.spec(fileSpec.getName());
            try {
                if (properties.getBootstrap().isCreateMissingApps() && (spec.getAppId() == null || spec.getAppId().isBlank())) {
                    ensureApp(spec);
                }
                List<InstanceRecord> records = observer.refresh(spec);
                conditions.track(spec, records);
                revisions.updateRevision(spec.getName()).ifPresent(revision -> composeHashes.composeHashOf(revision, records));
            } catch (PhalaApiException e) {
                // The orchestrator stays up (Cockpit, history, other sets); the set shows no instances until fixed.
                log.error("Replica set '{}' could not be bootstrapped or observed: {}", spec.getName(), e.getMessage());
            }
        }
    }

    /**
     * A set whose app was made elsewhere is observed (its instances shown, nothing touched) and its adoption proposed in
     * Tasklist, unless one is already waiting there.
     */
    private void observeAndProposeAdoption(ReplicaSetSpec fileSpec) {
        ReplicaSetSpec spec = replicaSets.spec(fileSpec.getName());
        try {
            conditions.track(spec, observer.refresh(spec));
        } catch (PhalaApiException e) {
            log.error("Replica set '{}' (app {}, made elsewhere) could not be observed: {}", spec.getName(), spec.getAppId(), e.getMessage());
        }
        try {
            if (!adoptionStarter.running(spec.getName())) {
                String started = adoptionStarter.start(spec.getName(), AdoptionStarter.PROPOSED_AT_START_UP,
                        "its app " + spec.getAppId() + " was made elsewhere and is not adopted yet");
                log.info("Replica set '{}' runs in app {}, made elsewhere: only observed until its adoption {} is approved in Tasklist",
                        spec.getName(), spec.getAppId(), started);
            }
        } catch (RuntimeException e) {
            log.error("Could not propose the adoption of replica set '{}': {}", spec.getName(), e.getMessage());
        }
    }

    /**
     * A set without any revision starts its history with the fleet file's compose as revision 1, current and update:
     * what the set was created with, or what the operator says it runs.
     */
    private void ensureInitialRevision(ReplicaSetSpec spec) {
        try {
            transaction.executeWithoutResult(status -> {
                if (!revisions.revisions(spec.getName()).isEmpty()) {
                    return;
                }
                Revision initial = revisions.record(spec.getName(), spec.getDockerCompose(), "fleet file", "initial revision from the fleet file");
                revisions.setCurrentRevision(spec.getName(), initial.number());
                revisions.setUpdateRevision(spec.getName(), initial.number());
                log.info("Recorded revision {} of replica set '{}' from the fleet file", initial.number(), spec.getName());
            });
        } catch (RuntimeException e) {
            log.error("Could not record the initial revision of replica set '{}': {}", spec.getName(), e.getMessage());
        }
    }

    private void ensureApp(ReplicaSetSpec spec) {
        String appId = registry.createdAppId(spec.getName()).filter(this::appExists).orElse(null);
        if (appId == null) {
            appId = createApp(spec);
        }
        createMissingSlots(spec, appId);
    }

    private boolean appExists(String appId) {
        try {
            phala.getApp(appId);
            return true;
        } catch (PhalaApiException e) {
            if (e.isNotFound()) {
                log.warn("App {} recorded for a replica set no longer exists; creating a new one", appId);
                return false;
            }
            throw e;
        }
    }

    private String createApp(ReplicaSetSpec spec) {
        ProvisionRequest.Compose compose = new ProvisionRequest.Compose(List.of(), null, spec.getDockerCompose(),
                spec.getName(), true, false, false, true, "zfs");
        // the app's first CVM is slot 0: created with that slot's instance type, disk and node
        SlotSpec first = spec.slotSpec(0);
        ProvisionResult provisioned = creator.createApp(new ProvisionRequest(first.slot(), first.instanceType(), compose,
                first.diskSize(), first.nodeId() == null ? null : first.nodeId().longValue(), null, null),
                properties.getBootstrap().getCreateTimeout());
        registry.saveCreatedAppId(spec.getName(), provisioned.appId());
        if (provisioned.appEnvEncryptPubkey() != null) {
            registry.saveEnvEncryptPubkey(spec.getName(), provisioned.appEnvEncryptPubkey());
        }
        log.info("Created app {} for replica set '{}'", provisioned.appId(), spec.getName());
        return provisioned.appId();
    }

    private void createMissingSlots(ReplicaSetSpec spec, String appId) {
        Set<String> existing = phala.listAppCvms(appId).stream().map(CvmInfo::name).collect(Collectors.toSet());
        Duration timeout = properties.getBootstrap().getCreateTimeout();
        for (int ordinal = 0; ordinal < spec.getReplicas(); ordinal++) {
            String slot = spec.slotName(ordinal);
            if (!existing.contains(slot)) {
                SlotSpec slotSpec = spec.slotSpec(ordinal);
                // two nodes starting at once find the same slot missing: the intent lets one of them create it
                EffectOutcome outcome = effects.create(EffectScope.outside("bootstrap", spec.getName(), slot, appId),
                        () -> provisioner.create(spec, slot, slotSpec, null, null, timeout));
                log.info("Slot {} of replica set '{}'{}: {}", slot, spec.getName(),
                        slotSpec.nodeId() == null ? "" : " on node " + slotSpec.nodeId(), outcome.text());
            }
        }
    }
}
