package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.etcd.EtcdClient;
import com.statefulcvm.connectors.workload.etcd.EtcdMember;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * leave-etcd: "Remove the member from the cluster", asked of another member, after drain-etcd has moved leadership
 * away and checked the quorum budget. A removed member stops itself; its data can never join again (etcd refuses a
 * removed member ID), so a later scale-up of the slot adds it as a new learner. Idempotent: a member that is no longer
 * listed is gone.
 */
@Component("removeEtcdMember")
public class RemoveEtcdMember extends HookStep {

    private static final Logger log = LoggerFactory.getLogger(RemoveEtcdMember.class);

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        Optional<EtcdMembership> cluster = EtcdMembership.read(context);
        if (cluster.isEmpty()) {
            return Answer.notYet("waiting: no other etcd member of " + context.spec().getName() + " answers its member list");
        }
        Optional<EtcdMember> member = cluster.get().member(context.member(), EtcdPeerUrl.of(context));
        if (member.isEmpty()) {
            return Answer.ready(context.member() + " is not a member of the etcd cluster (any more)");
        }
        try {
            int left = cluster.get().peer().removeMember(member.get().id()).members().size();
            log.info("etcd member {} of {} (ID {}) removed through {}; {} members left", context.member(),
                    context.spec().getName(), member.get().id(), cluster.get().peerName(), left);
            return Answer.ready(context.member() + " removed from the etcd cluster (ID " + member.get().id() + "); " + left
                    + " members left");
        } catch (WorkloadApiException e) {
            if (EtcdClient.isMemberNotFound(e)) {
                return Answer.ready(context.member() + " is not a member of the etcd cluster (any more)");
            }
            throw e;
        }
    }
}
