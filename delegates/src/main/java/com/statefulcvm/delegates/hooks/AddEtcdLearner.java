package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.etcd.EtcdMember;
import com.statefulcvm.connectors.workload.etcd.EtcdMemberAdded;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/**
 * add-etcd: "Add the member as a learner", before its CVM starts: a new etcd member must start with
 * {@code initial-cluster-state: existing} against a cluster that already knows its peer URL. A learner does not vote,
 * so the quorum does not change while it catches up (join-etcd promotes it). The peer URL comes from the set's
 * {@code scaling.peerUrls} / {@code scaling.peerUrlTemplate}. Idempotent: a member with that peer URL (or the slot's
 * name) is not added again. etcd's refusal while a voter has not been connected long enough ({@code unhealthy
 * cluster}, 503) changes nothing and is waited out.
 */
@Component("addEtcdLearner")
public class AddEtcdLearner extends HookStep {

    private static final Logger log = LoggerFactory.getLogger(AddEtcdLearner.class);

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        Optional<String> peerUrl = EtcdPeerUrl.of(context);
        if (peerUrl.isEmpty()) {
            throw new BpmnError(HOOK_FAILED, "no etcd peer URL for " + context.member() + ": set scaling.peer-url-template "
                    + "(placeholders {name}, {ordinal}, {set}) or scaling.peer-urls." + EtcdPeerUrl.ordinal(context)
                    + " in the fleet file");
        }
        Optional<EtcdMembership> cluster = EtcdMembership.read(context);
        if (cluster.isEmpty()) {
            return Answer.notYet("waiting: no other etcd member of " + context.spec().getName() + " answers its member list");
        }
        Optional<EtcdMember> existing = cluster.get().member(context.member(), peerUrl);
        if (existing.isPresent()) {
            return Answer.ready(context.member() + " is a member already (" + (existing.get().isLearner() ? "learner" : "voter")
                    + ", ID " + existing.get().id() + ", peer URL " + existing.get().peerUrls() + ")");
        }
        EtcdMemberAdded added;
        try {
            added = cluster.get().peer().addMember(List.of(peerUrl.get()), true);
        } catch (WorkloadApiException e) {
            // etcd refuses a new member, without changing anything, until every voter has been connected for its health
            // interval (5 s), e.g. just after the previous member was promoted: a reason to wait, not to fail
            if (e.status() == 503 || String.valueOf(e.errorText()).contains("unhealthy cluster")) {
                return Answer.notYet("waiting: etcd does not take a new member yet (" + e.errorText() + ")");
            }
            // etcd 3.4 allows one learner at a time: two replacements of a wave take turns, the first promoted first
            if (String.valueOf(e.errorText()).contains("too many learner")) {
                return Answer.notYet("waiting: another learner is catching up first (" + e.errorText() + ")");
            }
            throw e;
        }
        log.info("etcd member {} of {} added as a learner (ID {}, peer URL {}) through {}", context.member(),
                context.spec().getName(), added.member().id(), peerUrl.get(), cluster.get().peerName());
        return Answer.ready(context.member() + " added as a learner (ID " + added.member().id() + ", peer URL " + peerUrl.get()
                + "); " + added.members().size() + " members, the learner not voting");
    }
}
