package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.patroni.PatroniStatus;
import com.statefulcvm.fleet.failover.Lsn;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * sequence-patroni: "Read the member's WAL position": Patroni's {@code GET /patroni} {@code xlog} fields: a replica's
 * last received or replayed LSN (whichever is further), a primary's current location. A member whose PostgreSQL does
 * not run yet has no position: asked again until the recovery's sequence timeout.
 */
@Component("readPatroniWalPosition")
public class ReadPatroniWalPosition extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            throw new BpmnError(HOOK_FAILED, context.slot() + " has no CVM");
        }
        PatroniStatus status = context.patroni().status();
        PatroniStatus.Wal wal = status.wal();
        long position = wal == null ? -1 : Math.max(value(wal.location()), Math.max(value(wal.receivedLocation()), value(wal.replayedLocation())));
        if (position < 0) {
            return Answer.notYet("waiting for " + context.slot() + "'s PostgreSQL to report its WAL position (state "
                    + status.state() + ")");
        }
        return SequenceAnswer.of(execution, position, "WAL " + Lsn.of(position) + " as " + status.role()
                + (status.timeline() == null ? "" : ", timeline " + status.timeline()));
    }

    private static long value(Long lsn) {
        return lsn == null ? -1 : lsn;
    }
}
