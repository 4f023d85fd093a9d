package com.statefulcvm.web.api;

import com.statefulcvm.web.engine.ProcedureStartPlugin;
import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.fleet.adoption.Adoptions;
import com.statefulcvm.registry.JdbcProcedureLock;
import io.micrometer.core.instrument.MeterRegistry;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one place every start of an operator procedure is checked, whoever starts it: {@link ProcedureStartPlugin} calls
 * {@link #check} as the process instance starts (its start listener), inside the transaction that starts it, so a refusal rolls the start
 * back and nothing changes. The checks themselves are the ones our REST API makes ({@link ProcedureStartCheck}, one per
 * procedure). Every accepted start runs under the set's name as business key and records who started it
 * ({@code requestedBy}, the authenticated user).
 * <p>
 * Starts for one set are serialized from the check to the end of their transaction by a row lock in the database
 * ({@link JdbcProcedureLock}), whichever node they run on: of two starts at once (Tasklist and REST, two engine REST
 * calls, two nodes), the second waits for the first to commit and then sees it running.
 */
@Component
public class ProcedureStarts {

    private static final Logger log = LoggerFactory.getLogger(ProcedureStarts.class);

    private final Map<String, ProcedureStartCheck> checks;
    private final ObjectProvider<MeterRegistry> meters;
    private final JdbcProcedureLock lock;
    private final Adoptions adoptions;
    private final ReplicaSets replicaSets;

    ProcedureStarts(List<ProcedureStartCheck> checks, ObjectProvider<MeterRegistry> meters, JdbcProcedureLock lock,
                    Adoptions adoptions, ReplicaSets replicaSets) {
        this.checks = checks.stream().collect(Collectors.toMap(ProcedureStartCheck::processKey, Function.identity()));
        this.meters = meters;
        this.lock = lock;
        this.adoptions = adoptions;
        this.replicaSets = replicaSets;
    }

    /** The operator procedures: those with a start check, the only ones Tasklist offers to start. */
    public Set<String> procedures() {
        return checks.keySet();
    }

    public void check(String processKey, DelegateExecution execution) {
        ProcedureStartCheck check = checks.get(processKey);
        if (check == null || calledByAnotherProcedure(execution)) {
            // an automatic rollback is a rollout called by the failed rollout: the caller was checked when it started
            return;
        }
        String caller = caller(execution);
        ProcedureStart start = new ProcedureStart(processKey, execution, caller);
        try {
            requireDeclared(check, execution);
            lockUntilTransactionEnds(String.valueOf(start.text(ProcedureVariables.REPLICA_SET)), processKey);
            requireAdopted(processKey, start.text(ProcedureVariables.REPLICA_SET));
            String businessKey = check.check(start);
            String given = execution.getProcessBusinessKey();
            if (given == null) {
                execution.setProcessBusinessKey(businessKey);
            } else if (!given.equals(businessKey)) {
                throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, "businessKey: must be '" + businessKey
                        + "' for this start (the procedure runs under it), was '" + given + "'");
            }
            count(processKey, "started");
            log.info("Start of {} for {} accepted (requested by {})", processKey, businessKey, start.requestedBy(ProcedureVariables.REQUESTED_BY));
        } catch (ApiProblem problem) {
            throw refused(start, new ProcedureStartRefused(problem.status(), problem.getMessage(), problem.detail()));
        } catch (ProcedureStartRefused refused) {
            throw refused(start, refused);
        }
    }

    /**
     * A set whose app was made elsewhere is only observed until an approver adopts it: every procedure but its
     * adoption is refused, whoever starts it.
     */
    private void requireAdopted(String processKey, String set) {
        if (set == null || AdoptionVariables.PROCESS_KEY.equals(processKey) || !replicaSets.exists(set)) {
            return;
        }
        if (adoptions.awaitsAdoption(replicaSets.spec(set))) {
            throw new ProcedureStartRefused(HttpStatus.CONFLICT, "replica set '" + set + "' runs in app "
                    + replicaSets.spec(set).getAppId() + ", made elsewhere, and is not adopted yet: the orchestrator only observes it"
                    + " until an approver accepts its adoption (adopt-replica-set in Tasklist, or POST /api/replica-sets/" + set + "/adoptions)");
        }
    }

    /** 400 naming every variable the procedure does not take at its start. */
    private static void requireDeclared(ProcedureStartCheck check, DelegateExecution execution) {
        Set<String> undeclared = new TreeSet<>(execution.getVariableNames());
        undeclared.removeAll(check.startVariables());
        if (!undeclared.isEmpty()) {
            throw new ProcedureStartRefused(HttpStatus.BAD_REQUEST, String.join(", ", undeclared) + ": not a start variable of "
                    + check.processKey() + " (it takes " + String.join(", ", new TreeSet<>(check.startVariables()))
                    + "); what the procedure decides for itself is not given at its start");
        }
    }

    /** The one line a refused start leaves in the log: what, for whom and why, without a stack trace. */
    private ProcedureStartRefused refused(ProcedureStart start, ProcedureStartRefused refused) {
        count(start.processKey(), "refused");
        log.info("Start of {} for {} refused ({}, requested by {}): {}", start.processKey(), java.util.Objects.requireNonNullElse(start.text(ProcedureVariables.REPLICA_SET), "(no set named)"),
                refused.httpStatus().value(), start.requestedBy(ProcedureVariables.REQUESTED_BY), refused.getMessage());
        return refused;
    }

    private static boolean calledByAnotherProcedure(DelegateExecution execution) {
        return execution instanceof ExecutionEntity entity && entity.getProcessInstance().getSuperExecution() != null;
    }

    private static String caller(DelegateExecution execution) {
        Authentication authentication = execution.getProcessEngineServices().getIdentityService().getCurrentAuthentication();
        return authentication == null ? null : authentication.getUserId();
    }

    private void lockUntilTransactionEnds(String set, String processKey) {
        try {
            if (!lock.holdUntilTransactionEnds(set, processKey)) {
                // no transaction to hold it in (the engine runs in Spring's transactions, so this is a test engine)
                log.debug("Start of {} for {} checked outside a transaction: not serialized", processKey, set);
            }
        } catch (JdbcProcedureLock.LockNotTaken e) {
            throw new ProcedureStartRefused(HttpStatus.CONFLICT, "another procedure of replica set '" + set
                    + "' was being started at the same moment; try again");
        }
    }

    private void count(String processKey, String result) {
        MeterRegistry registry = meters.getIfAvailable();
        if (registry != null) {
            registry.counter("orchestrator.procedure.starts", "procedure", processKey, "result", result).increment();
        }
    }
}
