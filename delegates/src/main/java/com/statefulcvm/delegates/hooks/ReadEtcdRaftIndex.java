package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.etcd.EtcdStatus;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * sequence-etcd: "Read the member's raft index": {@code POST /v3/maintenance/status} answers the member's committed
 * raft index from its own log, with or without a leader (a member without a quorum does not serve, but answers this).
 */
@Component("readEtcdRaftIndex")
public class ReadEtcdRaftIndex extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            throw new BpmnError(HOOK_FAILED, context.slot() + " has no CVM");
        }
        EtcdStatus status = context.etcd(context.self()).status();
        return SequenceAnswer.of(execution, status.raftIndex(), "raft index " + status.raftIndex() + ", term " + status.raftTerm()
                + ", applied " + status.raftAppliedIndex() + (status.hasLeader() ? "" : ", no leader"));
    }
}
