package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.etcd.EtcdStatus;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * sequence-etcd: "Read the member's raft index". While the compose holds etcd back (the shipped agent with
 * {@code --store etcd}, the default for etcd sets) and etcd does not run, the agent answers the member's raft log as it
 * lies on disk: the term and index of its last entry, compared as (term, index), raft's own rule for which log is the
 * more up to date. A running member answers {@code POST /v3/maintenance/status}: its committed raft index, from its
 * own log with or without a leader (a member that runs may already have caught up from the others).
 */
@Component("readEtcdRaftIndex")
public class ReadEtcdRaftIndex extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            throw new BpmnError(HOOK_FAILED, context.slot() + " has no CVM");
        }
        EtcdStatus status;
        try {
            status = context.etcd(context.self()).status();
        } catch (WorkloadApiException notRunning) {
            SequenceEndpoint.Position held = HeldBackPosition.read(context, notRunning);
            return SequenceAnswer.of(execution, held.generation(), held.number(), "last raft entry " + held.number()
                    + (held.generation() == null ? "" : ", term " + held.generation()) + " from the member's raft log (compose's "
                    + HeldBackPosition.path(context) + "; etcd held back)");
        }
        return SequenceAnswer.of(execution, status.raftIndex(), "raft index " + status.raftIndex() + ", term " + status.raftTerm()
                + ", applied " + status.raftAppliedIndex() + (status.hasLeader() ? "" : ", no leader"));
    }
}
