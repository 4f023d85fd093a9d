package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.SequenceEndpoint;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.patroni.PatroniStatus;
import com.statefulcvm.fleet.failover.Lsn;
import org.camunda.bpm.engine.delegate.BpmnError;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/**
 * sequence-patroni: "Read the member's WAL position": Patroni's {@code GET /patroni} {@code xlog} fields: a replica's
 * last received or replayed LSN (whichever is further), a primary's current location, with its {@code timeline} as the
 * position's generation (the recovery compares (timeline, LSN) in that order). A member whose PostgreSQL does
 * not run yet has no position: asked again until the recovery's sequence timeout. While the compose holds Patroni back
 * (lights-out.release-path set) and Patroni does not answer, the compose's sequence endpoint answers the LSN read from
 * the data directory (pg_controldata: the latest checkpoint, or the minimum recovery point of a replica).
 */
@Component("readPatroniWalPosition")
public class ReadPatroniWalPosition extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        if (context.cvm().isEmpty()) {
            throw new BpmnError(HOOK_FAILED, context.slot() + " has no CVM");
        }
        PatroniStatus status;
        try {
            status = context.patroni().status();
        } catch (WorkloadApiException notRunning) {
            // held back: Patroni does not run yet; the compose reads the data directory (timeline, checkpoint LSN)
            SequenceEndpoint.Position held = HeldBackPosition.read(context, notRunning);
            return SequenceAnswer.of(execution, held.generation(), held.number(), "WAL " + Lsn.of(held.number())
                    + (held.generation() == null ? " (timeline not reported)" : "") + " from the data directory (compose's "
                    + HeldBackPosition.path(context) + "; Patroni held back)");
        }
        PatroniStatus.Wal wal = status.wal();
        long position = wal == null ? -1 : Math.max(value(wal.location()), Math.max(value(wal.receivedLocation()), value(wal.replayedLocation())));
        if (position < 0) {
            return Answer.notYet("waiting for " + context.slot() + "'s PostgreSQL to report its WAL position (state "
                    + status.state() + ")");
        }
        return SequenceAnswer.of(execution, status.timeline(), position, "WAL " + Lsn.of(position) + " as " + status.role()
                + (status.timeline() == null ? " (timeline not reported)" : ""));
    }

    private static long value(Long lsn) {
        return lsn == null ? -1 : lsn;
    }
}
