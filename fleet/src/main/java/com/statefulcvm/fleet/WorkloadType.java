package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Everything the orchestrator knows about a workload type beside its diagrams: the quorum the disruption budget
 * protects, the fewest replicas a scale may leave without an approval, the admin port its procedures talk to, the
 * probe that tells its leader, whether a lights-out recovery holds its members back until the seed is chosen, which of
 * its drain and rejoin procedures do work, and how its leader hands over. The built-in types are descriptors
 * ({@link WorkloadCatalog#BUILT_IN}); a user's type is one under {@code orchestrator.workload-types.<name>}, bound the
 * way Spring Boot binds any setting (unknown keys refused), plus its diagrams. Mutable so that Spring Boot can bind it.
 */
public class WorkloadType {

    private String name;
    /** {@link QuorumRule}: majority, all, one or a number. */
    private String quorum = "one";
    private int minReplicas = 1;
    /** The workload's admin API port (Patroni REST, etcd client, Consul HTTP); 0: none. */
    private int adminPort = 0;
    /** How to ask an instance whether it leads; unset (port 0): the type has no leader to ask for. */
    private RoleProbe roleProbe = new RoleProbe();
    /** Whether its members are held back at boot (the shipped hold-back agent) so that a lights-out recovery seeds one first. */
    private boolean holdBack = false;
    private Set<WorkloadHook> hooks = EnumSet.of(WorkloadHook.DRAIN, WorkloadHook.REJOIN);
    /**
     * Whether a replacement (a new CVM: an empty disk, a new instance_id) is a new member of the workload: the old
     * member is removed (leave-&lt;type&gt;), the new one registered before its CVM starts (add-&lt;type&gt;) and made a
     * full member after its health gate (join-&lt;type&gt;), as etcd needs (a new, empty member can never join under the
     * old member's ID) and Consul does (the old server leaves the raft peers). A type that says so needs those three
     * diagrams.
     */
    private boolean replacementIsNewMember = false;
    /** What happens to leadership when its leader is drained, in the rollout's leader step; unset: the drain decides. */
    private String leaderHandover;

    public WorkloadType() {
    }

    /** A descriptor in code, for the built-in types. */
    static WorkloadType of(String name, QuorumRule quorum, int minReplicas, int adminPort, boolean holdBack,
                           Set<WorkloadHook> hooks, String leaderHandover) {
        return of(name, quorum, minReplicas, adminPort, holdBack, hooks, false, leaderHandover);
    }

    static WorkloadType of(String name, QuorumRule quorum, int minReplicas, int adminPort, boolean holdBack,
                           Set<WorkloadHook> hooks, boolean replacementIsNewMember, String leaderHandover) {
        WorkloadType type = new WorkloadType();
        type.name = name;
        type.quorum = quorum.toString();
        type.minReplicas = minReplicas;
        type.adminPort = adminPort;
        type.holdBack = holdBack;
        type.hooks = hooks.isEmpty() ? EnumSet.noneOf(WorkloadHook.class) : EnumSet.copyOf(hooks);
        type.leaderHandover = leaderHandover;
        type.replacementIsNewMember = replacementIsNewMember;
        return type;
    }

    WorkloadType withRoleProbe(int port, String path) {
        roleProbe = new RoleProbe();
        roleProbe.setPort(port);
        roleProbe.setPath(path);
        return this;
    }

    /** The members that must serve out of {@code members}. */
    public int quorumOf(int members) {
        return quorumRule().of(members);
    }

    public QuorumRule quorumRule() {
        return QuorumRule.parse(quorum);
    }

    public boolean runs(WorkloadHook hook) {
        return hooks != null && hooks.contains(hook);
    }

    /** Every problem as {@code workloadTypes.<name>.<field>: problem}; empty when it makes sense. */
    public List<String> problems() {
        String at = "workloadTypes." + name + ".";
        List<String> problems = new ArrayList<>();
        if (name == null || !name.matches("[a-z][a-z0-9-]*")) {
            problems.add("workloadTypes." + name + ": a type's name must be lower case letters, digits and '-', starting"
                    + " with a letter (it names its diagrams: drain-<type>.bpmn)");
        }
        try {
            QuorumRule.parse(quorum);
        } catch (IllegalArgumentException e) {
            problems.add(at + "quorum: " + e.getMessage());
        }
        if (minReplicas < 1) {
            problems.add(at + "minReplicas: must be at least 1 (was " + minReplicas + ")");
        }
        if (adminPort < 0 || adminPort > 65535) {
            problems.add(at + "adminPort: must be a port from 1 to 65535, or 0 for none (was " + adminPort + ")");
        }
        if (roleProbe != null && roleProbe.isSet() && (roleProbe.getPort() > 65535 || roleProbe.getPath() == null
                || !roleProbe.getPath().startsWith("/"))) {
            problems.add(at + "roleProbe: needs a port from 1 to 65535 and a path starting with / (was "
                    + roleProbe.getPort() + " " + roleProbe.getPath() + ")");
        }
        return problems;
    }

    /** "quorum majority, at least 3 replicas, held back, hooks drain and rejoin": the descriptor in words. */
    public String describe() {
        List<String> hookNames = hooks == null ? List.of() : hooks.stream().map(h -> h.name().toLowerCase()).sorted().toList();
        return "quorum " + quorum + ", at least " + minReplicas + " replica" + (minReplicas == 1 ? "" : "s")
                + (holdBack ? ", held back until released" : "")
                + (replacementIsNewMember ? ", a replacement leaves and adds" : "")
                + (hookNames.isEmpty() ? ", no drain or rejoin" : ", runs " + String.join(" and ", hookNames));
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getQuorum() { return quorum; }
    public void setQuorum(String quorum) { this.quorum = quorum; }
    public int getMinReplicas() { return minReplicas; }
    public void setMinReplicas(int minReplicas) { this.minReplicas = minReplicas; }
    public int getAdminPort() { return adminPort; }
    public void setAdminPort(int adminPort) { this.adminPort = adminPort; }
    public RoleProbe getRoleProbe() { return roleProbe; }
    public void setRoleProbe(RoleProbe roleProbe) { this.roleProbe = roleProbe; }
    public boolean isHoldBack() { return holdBack; }
    public void setHoldBack(boolean holdBack) { this.holdBack = holdBack; }
    public Set<WorkloadHook> getHooks() { return hooks; }
    public void setHooks(Set<WorkloadHook> hooks) { this.hooks = hooks; }
    public boolean isReplacementIsNewMember() { return replacementIsNewMember; }
    public void setReplacementIsNewMember(boolean replacementIsNewMember) { this.replacementIsNewMember = replacementIsNewMember; }
    public String getLeaderHandover() { return leaderHandover; }
    public void setLeaderHandover(String leaderHandover) { this.leaderHandover = leaderHandover; }
}
