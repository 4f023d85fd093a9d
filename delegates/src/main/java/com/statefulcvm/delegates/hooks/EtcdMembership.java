package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.etcd.EtcdClient;
import com.statefulcvm.connectors.workload.etcd.EtcdMember;
import com.statefulcvm.connectors.workload.etcd.EtcdMemberList;
import com.statefulcvm.fleet.Slots;

import java.util.Optional;

/**
 * The etcd cluster as seen from a member other than the slot's own: a member that is being added has not started
 * (or is a learner, which serves no membership calls), and one that is being removed may be gone already. The first
 * running CVM of the set whose member answers the member list is asked; the slot's member is found by name or, before
 * it has started and has no name yet, by its peer URL.
 */
record EtcdMembership(EtcdClient peer, String peerName, EtcdMemberList members) {

    /** Empty when no other member answers (a reason to wait). */
    static Optional<EtcdMembership> read(HookContext context) {
        for (CvmInfo cvm : context.appCvms()) {
            if (cvm.name() == null || cvm.name().equals(context.slot()) || !cvm.isRunning() || !cvm.isSettled()
                    || Slots.ordinalOf(context.spec().getName(), cvm.name()).isEmpty()) {
                continue;
            }
            EtcdClient client = context.etcd(cvm);
            try {
                return Optional.of(new EtcdMembership(client, cvm.name(), client.memberList()));
            } catch (WorkloadApiException | IllegalArgumentException unreachable) {
                // try the next one
            }
        }
        return Optional.empty();
    }

    /** The slot's member: by its name once it has started, else by the peer URL it was added with. */
    Optional<EtcdMember> member(String name, Optional<String> peerUrl) {
        return members.byName(name).or(() -> peerUrl.flatMap(url -> members.members().stream()
                .filter(m -> m.peerUrls().contains(url)).findFirst()));
    }
}
