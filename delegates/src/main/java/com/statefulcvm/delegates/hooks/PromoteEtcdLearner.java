package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.etcd.EtcdMember;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.Locale;
import java.util.Optional;

/**
 * join-etcd: "Promote the learner once it is in sync": asks a voting member to promote the slot's learner. etcd itself
 * refuses while the learner lags ({@code can only promote a learner member which is in sync with leader}): that is a
 * reason to wait, as is a member that has not started yet. A member that votes already is ready.
 */
@Component("promoteEtcdLearner")
public class PromoteEtcdLearner extends HookStep {

    private static final Logger log = LoggerFactory.getLogger(PromoteEtcdLearner.class);

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        Optional<EtcdMembership> cluster = EtcdMembership.read(context);
        if (cluster.isEmpty()) {
            return Answer.notYet("waiting: no other etcd member of " + context.spec().getName() + " answers its member list");
        }
        EtcdMember member = cluster.get().member(context.member(), EtcdPeerUrl.of(context)).orElseThrow(() ->
                new BpmnError(HOOK_FAILED, context.member() + " is not a member of the etcd cluster: add-etcd did not add it"));
        if (member.isVoter()) {
            return Answer.ready(context.member() + " is a voting member (ID " + member.id() + ")");
        }
        if (!member.isStarted()) {
            return Answer.notYet("waiting for learner " + context.member() + " to start and connect");
        }
        try {
            cluster.get().peer().promoteMember(member.id());
        } catch (WorkloadApiException e) {
            String text = String.valueOf(e.errorText()).toLowerCase(Locale.ROOT);
            if (text.contains("in sync") || text.contains("not ready") || e.isRetryable() || e.isNoResponse()) {
                return Answer.notYet("waiting for learner " + context.member() + " to catch up: " + e.errorText());
            }
            throw e;
        }
        log.info("etcd learner {} of {} promoted to a voting member", context.member(), context.spec().getName());
        return Answer.notYet(context.member() + " promoted to a voting member; confirming");
    }
}
