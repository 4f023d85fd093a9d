package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.AttestationVariables;
import com.statefulcvm.delegates.procedure.OutageGuard;
import com.statefulcvm.delegates.procedure.HealVariables;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.Optional;

/**
 * The running instance of a procedure for a replica set (business key: the set's name), whatever the caller may
 * read: the query runs without the caller's authorization check, so that a user allowed to start a procedure but not
 * to read its instances cannot start a second one beside a running one.
 */
@Component
public class RunningProcesses {

    private final RuntimeService runtime;
    private final ProcessEngineConfigurationImpl configuration;
    private final OutageGuard outages;

    RunningProcesses(ProcessEngine engine, OutageGuard outages) {
        this.runtime = engine.getRuntimeService();
        this.configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        this.outages = outages;
    }

    /** The id of a running instance of {@code processKey} for the set, if any. */
    public Optional<String> of(String processKey, String set) {
        return configuration.getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(
                () -> runtime.createProcessInstanceQuery().processDefinitionKey(processKey).processInstanceBusinessKey(set)
                        .list().stream().map(ProcessInstance::getId).findFirst()));
    }

    /** The id of a running heal of one of the set's instances (business key {@code <set>/<ordinal>}), if any. */
    public Optional<String> healOf(String set) {
        return ofAnInstance(HealVariables.HEAL_PROCESS, set);
    }

    /**
     * The id of a running re-attestation (admit-instance.bpmn, business key {@code <set>/<ordinal>}) of one of the
     * set's instances, if any: it may still fence, and stop, its instance.
     */
    public Optional<String> admissionOf(String set) {
        return ofAnInstance(AttestationVariables.ADMIT_PROCESS, set);
    }

    private Optional<String> ofAnInstance(String processKey, String set) {
        return configuration.getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(
                () -> runtime.createProcessInstanceQuery().processDefinitionKey(processKey)
                        .processInstanceBusinessKeyLike(set + "/%").list().stream().map(ProcessInstance::getId).findFirst()));
    }

    /**
     * 409 when an instance of {@code processKey} runs for the set: the one rule behind every "one procedure of a set
     * at a time" check. {@code message} may name the running instance as {@code %s}.
     */
    public void requireNone(String processKey, String set, String message) {
        refuseIfRunning(of(processKey, set), message);
    }

    /** 409 when a heal of one of the set's instances runs; {@code message} may name it as {@code %s}. */
    public void requireNoHeal(String set, String message) {
        refuseIfRunning(healOf(set), message);
    }

    /** 409 when a re-attestation of one of the set's instances runs; {@code message} may name it as {@code %s}. */
    public void requireNoAdmission(String set, String message) {
        refuseIfRunning(admissionOf(set), message);
    }

    /**
     * 409 while the set is in an outage (more slots down than its disruption budget tolerates): {@code what} would act
     * on one slot, and the set must be recovered as a whole.
     */
    public void requireNoOutage(String set, String what) {
        outages.outage(set).ifPresent(outage -> {
            throw new ApiProblem(HttpStatus.CONFLICT, outage.refusal(what), outage.recovery() == null
                    ? Map.of("outageSince", outage.since().toString())
                    : Map.of("outageSince", outage.since().toString(), "lightsOutRecovery", outage.recovery()));
        });
    }

    private static void refuseIfRunning(Optional<String> id, String message) {
        if (id.isPresent()) {
            throw new ApiProblem(HttpStatus.CONFLICT, message.replace("%s", id.get()), Map.of("processInstanceId", id.get()));
        }
    }
}
