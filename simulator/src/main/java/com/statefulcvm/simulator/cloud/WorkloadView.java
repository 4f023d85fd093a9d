package com.statefulcvm.simulator.cloud;

import java.util.List;
import java.util.Optional;

/**
 * An app's simulated workload as one gateway route reaches it ({@link AppLeadership}): the CVM asked (an instance
 * route's CVM; an app route's leader, else its first running CVM), and every member.
 *
 * @param askedName    the CVM asked
 * @param askedUpstream whether the CVM asked runs settled, and healthy: {@link Upstream#NONE} answers 502 as for health
 * @param self         the CVM asked as a member; empty when it is not one (it left, was removed, or never ran)
 * @param appName      the app's name (Patroni's scope)
 * @param clusterId    the etcd cluster ID, decimal, stable per app
 * @param term         the leadership term (Patroni's timeline, the raft term), 0 before any leader
 * @param index        the raft index: one more at each change of members or leader
 * @param members      every member, CVM members by name first, then members announced and not started
 */
public record WorkloadView(String askedName, Upstream askedUpstream, Optional<WorkloadMember> self, String appName,
        String clusterId, long term, long index, List<WorkloadMember> members) {

    public WorkloadView {
        members = List.copyOf(members);
    }

    public Optional<WorkloadMember> leader() {
        return members.stream().filter(WorkloadMember::leader).findFirst();
    }

    public Optional<WorkloadMember> byName(String name) {
        return members.stream().filter(m -> name != null && name.equals(m.name())).findFirst();
    }

    /** The members whose CVM runs settled: Patroni's {@code /cluster} lists only those (a stopped one's key expires). */
    public List<WorkloadMember> runningMembers() {
        return members.stream().filter(WorkloadMember::running).toList();
    }
}
