package com.statefulcvm.web.phala;

import com.statefulcvm.web.engine.PhalaOutagePause;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.delegates.support.PhalaCircuit;
import jakarta.annotation.PreDestroy;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.Job;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.Date;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * When Phala Cloud answers again, the procedures that paused for it ({@link PhalaOutagePause}) go on at once instead of
 * at their next try: their jobs are made due now and their {@value ProcedureVariables#PHALA_CLOUD_UNREACHABLE} variable goes. Any
 * node's return wakes every paused job of the cluster.
 */
@Component
public class PhalaReturn {

    private static final Logger log = LoggerFactory.getLogger(PhalaReturn.class);

    private final ObjectProvider<ProcessEngine> engine;
    private final Clock clock;

    /** Off the thread whose call found Phala back: that one may be inside a job's transaction. */
    private final ExecutorService waker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "phala-return");
        thread.setDaemon(true);
        return thread;
    });

    public PhalaReturn(PhalaCircuit circuit, ObjectProvider<ProcessEngine> engine, Clock clock) {
        this.engine = engine;
        this.clock = clock;
        circuit.onClose(() -> waker.execute(this::wake));
    }

    @PreDestroy
    void stop() {
        waker.shutdownNow();
    }

    void wake() {
        ProcessEngine processEngine = engine.getIfAvailable();
        if (processEngine == null) {
            return;
        }
        ManagementService management = processEngine.getManagementService();
        RuntimeService runtime = processEngine.getRuntimeService();
        int woken = 0;
        for (Job job : management.createJobQuery().withException().unlimitedList()) {
            String message = job.getExceptionMessage();
            if (message != null && message.startsWith(PhalaOutagePause.WAITING) && job.getRetries() > 0) {
                try {
                    management.setJobDuedate(job.getId(), Date.from(clock.instant()));
                    woken++;
                } catch (RuntimeException gone) {
                    log.debug("Paused job {} not woken: {}", job.getId(), gone.toString());
                }
            }
        }
        for (VariableInstance waiting : runtime.createVariableInstanceQuery().variableName(ProcedureVariables.PHALA_CLOUD_UNREACHABLE).unlimitedList()) {
            try {
                runtime.removeVariableLocal(waiting.getExecutionId(), ProcedureVariables.PHALA_CLOUD_UNREACHABLE);
            } catch (RuntimeException gone) {
                log.debug("Variable {} of {} not removed: {}", ProcedureVariables.PHALA_CLOUD_UNREACHABLE, waiting.getExecutionId(), gone.toString());
            }
        }
        if (woken > 0) {
            log.info("Phala Cloud answers again: {} paused step(s) resume now", woken);
        }
    }
}
