package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.statefulcvm.fleet.failover.Failover;
import com.statefulcvm.fleet.hooks.Hooks;
import com.statefulcvm.fleet.lightsout.LightsOut;
import com.statefulcvm.fleet.scaling.Scaling;

/**
 * One replica set as the operator declares it in the fleet file. Mutable so that Spring Boot can bind it; the
 * {@link FleetValidator} decides whether a bound value makes sense.
 */
public class ReplicaSetSpec {

    private String name;
    /** Existing Phala app; empty means "create it" (only allowed where bootstrap is enabled, e.g. the simulator). */
    private String appId;
    private int replicas = 1;
    private String workloadType = "generic";
    /** docker-compose YAML given inline; exactly one of this or {@link #composeFile} is used. */
    private String dockerCompose;
    /** Path of a docker-compose file, relative to the working directory. */
    private String composeFile;
    private String instanceType = "tdx.small";
    private int diskSize = 20;
    private UpdatePolicy updatePolicy = new UpdatePolicy();
    private HealthCheck healthCheck = new HealthCheck();
    private Approvals approvals = new Approvals();
    private AttestationSpec attestation = new AttestationSpec();
    private RoleProbe roleProbe = new RoleProbe();
    private Hooks hooks = new Hooks();
    private AutoHealing autoHealing = new AutoHealing();
    private Failover failover = new Failover();
    private Scaling scaling = new Scaling();
    private LightsOut lightsOut = new LightsOut();
    /** Per-slot overrides (labels, instance type, disk size, node placement), by ordinal: docs/fleet.md. */
    private List<InstanceOverride> instances = new ArrayList<>();
    /**
     * The app's env encryption public key (hex X25519, as {@code phala cvms get} or the dashboard shows it), for env
     * rollouts of an app this deployment did not create; an app it created has the key recorded at creation.
     */
    private String envEncryptPublicKey;
    /** The CVMs of an adopted app, by name or id, in ordinal order, for those not named {@code <set>-<ordinal>} ({@link SlotMembers}). */
    private List<String> members = new ArrayList<>();

    /** The descriptor of {@link #workloadType}, resolved from the configured catalogue at start ({@link #useWorkload}). */
    private WorkloadType workload;

    /**
     * What its workload type declares: the descriptor resolved at start, else (a set made in code) the built-in one
     * of that name.
     *
     * @throws IllegalArgumentException when the type has no descriptor
     */
    public WorkloadType workload() {
        return workload != null && workload.getName().equals(workloadType) ? workload : WorkloadCatalog.BUILT_IN.of(workloadType);
    }

    /** The workload's admin API port: the set's hooks.adminPort, else its type's. */
    public int adminPort() {
        return hooks.adminPortOr(workload().getAdminPort());
    }

    /** Whether drain-&lt;type&gt; does anything for this set (its type drains, or it has a pre-stop endpoint). */
    public boolean drainDoesWork() {
        return hooks.drainDoesWork(workload().runs(WorkloadHook.DRAIN));
    }

    /** Whether rejoin-&lt;type&gt; does anything (generic's ends at once: an instance has rejoined once its health gate passed). */
    public boolean rejoinDoesWork() {
        return workload().runs(WorkloadHook.REJOIN);
    }

    /** Whether replacing an instance removes its old member and adds the new CVM as a new one (leave, add, join). */
    public boolean replacementIsNewMember() {
        return workload().isReplacementIsNewMember();
    }

    /** The fewest replicas a scale may leave without an approval: the set's scaling.minReplicas, else its type's. */
    public int minReplicas() {
        return scaling.minReplicasOr(workload().getMinReplicas());
    }

    /** Resolves the set's workload type in the catalogue this application runs with. */
    public void useWorkload(WorkloadCatalog catalog) {
        this.workload = catalog.of(workloadType);
    }

    public String slotName(int ordinal) {
        return Slots.name(name, ordinal);
    }

    /**
     * The same set with another desired replica count (a scale's, see {@code DesiredReplicas}); every other field is
     * shared with this one. The fleet file's own spec is never changed.
     */
    public ReplicaSetSpec withReplicas(int desired) {
        ReplicaSetSpec copy = new ReplicaSetSpec();
        copy.name = name;
        copy.appId = appId;
        copy.replicas = desired;
        copy.workloadType = workloadType;
        copy.workload = workload;
        copy.dockerCompose = dockerCompose;
        copy.composeFile = composeFile;
        copy.instanceType = instanceType;
        copy.diskSize = diskSize;
        copy.updatePolicy = updatePolicy;
        copy.healthCheck = healthCheck;
        copy.approvals = approvals;
        copy.attestation = attestation;
        copy.roleProbe = roleProbe;
        copy.hooks = hooks;
        copy.autoHealing = autoHealing;
        copy.failover = failover;
        copy.scaling = scaling;
        copy.lightsOut = lightsOut;
        copy.instances = instances;
        copy.envEncryptPublicKey = envEncryptPublicKey;
        copy.members = members;
        return copy;
    }

    /** The slot's override from the fleet file, if it has one. */
    public Optional<InstanceOverride> override(int ordinal) {
        return instances == null ? Optional.empty()
                : instances.stream().filter(o -> o.getOrdinal() != null && o.getOrdinal() == ordinal).findFirst();
    }

    /** What a CVM of slot {@code ordinal} is created with: the set's values, with the slot's override on top. */
    public SlotSpec slotSpec(int ordinal) {
        Optional<InstanceOverride> override = override(ordinal);
        return new SlotSpec(ordinal, slotName(ordinal),
                override.map(InstanceOverride::getLabels).orElse(Map.of()),
                override.map(InstanceOverride::getInstanceType).orElse(instanceType),
                override.map(InstanceOverride::getDiskSize).orElse(diskSize),
                override.map(InstanceOverride::getNodeId).orElse(null),
                override.isPresent());
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getAppId() { return appId; }
    public void setAppId(String appId) { this.appId = appId; }
    public int getReplicas() { return replicas; }
    public void setReplicas(int replicas) { this.replicas = replicas; }
    public String getWorkloadType() { return workloadType; }
    public void setWorkloadType(String workloadType) { this.workloadType = workloadType; }
    public String getDockerCompose() { return dockerCompose; }
    public void setDockerCompose(String dockerCompose) { this.dockerCompose = dockerCompose; }
    public String getComposeFile() { return composeFile; }
    public void setComposeFile(String composeFile) { this.composeFile = composeFile; }
    public String getInstanceType() { return instanceType; }
    public void setInstanceType(String instanceType) { this.instanceType = instanceType; }
    public int getDiskSize() { return diskSize; }
    public void setDiskSize(int diskSize) { this.diskSize = diskSize; }
    public UpdatePolicy getUpdatePolicy() { return updatePolicy; }
    public void setUpdatePolicy(UpdatePolicy updatePolicy) { this.updatePolicy = updatePolicy; }
    public HealthCheck getHealthCheck() { return healthCheck; }
    public void setHealthCheck(HealthCheck healthCheck) { this.healthCheck = healthCheck; }
    public Approvals getApprovals() { return approvals; }
    public void setApprovals(Approvals approvals) { this.approvals = approvals; }
    public AttestationSpec getAttestation() { return attestation; }
    public void setAttestation(AttestationSpec attestation) { this.attestation = attestation; }
    public Hooks getHooks() { return hooks; }
    public void setHooks(Hooks hooks) { this.hooks = hooks; }
    public AutoHealing getAutoHealing() { return autoHealing; }
    public void setAutoHealing(AutoHealing autoHealing) { this.autoHealing = autoHealing; }
    public Failover getFailover() { return failover; }
    public void setFailover(Failover failover) { this.failover = failover; }
    public Scaling getScaling() { return scaling; }
    public void setScaling(Scaling scaling) { this.scaling = scaling; }
    public LightsOut getLightsOut() { return lightsOut; }
    public void setLightsOut(LightsOut lightsOut) { this.lightsOut = lightsOut; }
    public RoleProbe getRoleProbe() { return roleProbe; }
    public void setRoleProbe(RoleProbe roleProbe) { this.roleProbe = roleProbe; }

    public List<InstanceOverride> getInstances() { return instances; }

    public void setInstances(List<InstanceOverride> instances) { this.instances = instances; }

    public List<String> getMembers() { return members; }

    public void setMembers(List<String> members) { this.members = members; }

    public String getEnvEncryptPublicKey() { return envEncryptPublicKey; }

    public void setEnvEncryptPublicKey(String envEncryptPublicKey) { this.envEncryptPublicKey = envEncryptPublicKey; }
}
