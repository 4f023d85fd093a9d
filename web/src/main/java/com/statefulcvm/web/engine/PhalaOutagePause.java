package com.statefulcvm.web.engine;

import com.statefulcvm.web.phala.PhalaReturn;
import com.statefulcvm.delegates.procedure.ProcedureVariables;
import com.statefulcvm.connectors.phala.PhalaApiException;
import com.statefulcvm.delegates.support.PhalaCircuit;
import com.statefulcvm.delegates.support.PhalaOutage;
import com.statefulcvm.delegates.support.PhalaUnreachable;
import com.statefulcvm.delegates.support.StepHeld;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.bpmn.parser.AbstractBpmnParseListener;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.jobexecutor.DefaultFailedJobCommandFactory;
import org.camunda.bpm.engine.impl.jobexecutor.FailedJobCommandFactory;
import org.camunda.bpm.engine.impl.jobexecutor.TimerExecuteNestedActivityJobHandler;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.JobEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TimerEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.util.ExceptionUtil;
import org.camunda.bpm.engine.impl.util.xml.Element;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.Set;

/**
 * A procedure pauses while Phala Cloud is down instead of failing: a job whose step failed because Phala did not
 * answer ({@link PhalaOutage}, after the client's own retries, or at once while {@link PhalaCircuit} is open) keeps its
 * retries and gets no incident; it is due again when the circuit's next probe is (and woken at once when Phala answers
 * again, {@link PhalaReturn}). Visible in Cockpit: the job's exception reads {@value #WAITING}..., its due date is the
 * next try, and the process instance (and every procedure above it) carries the variable {@value ProcedureVariables#PHALA_CLOUD_UNREACHABLE} saying since
 * when and where it waits. The time it waits does not count against the procedure's deadlines: every boundary timer of
 * the scopes it waits in (a rollout slot's progress deadline, a heal's) is put off by as long, and no boundary timer
 * fires at all while the circuit is open (it is paused like a step). Any other failure goes to the engine's own retry
 * handling, unchanged.
 */
@Component
public class PhalaOutagePause extends AbstractProcessEnginePlugin {

    private static final Logger log = LoggerFactory.getLogger(PhalaOutagePause.class);

    /** How the paused job's exception message starts: what {@link PhalaReturn} looks for. */
    public static final String WAITING = "Phala Cloud unreachable: waiting";
    /** The shortest pause, whatever the circuit says: a job is not run again faster than this. */
    static final Duration MIN_WAIT = Duration.ofSeconds(1);

    private final PhalaCircuit circuit;
    private final Clock clock;

    public PhalaOutagePause(PhalaCircuit circuit, Clock clock) {
        this.circuit = circuit;
        this.clock = clock;
    }

    /**
     * No deadline fires while Phala Cloud is unreachable: every boundary timer's start refuses while this node's
     * circuit is open, so its job fails like a step that met the outage and is paused the same way (a step woken
     * outside the engine, by the rollout's step waker, meets the outage in no job of its own, so nothing else puts its
     * deadline off). Once Phala answers again a deadline is held for as long as the outage lasted
     * ({@link PhalaCircuit#deadlinesHeldUntil()}): the step it guards gets back the time the outage took.
     */
    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        if (configuration.getCustomPostBPMNParseListeners() == null) {
            configuration.setCustomPostBPMNParseListeners(new ArrayList<>());
        }
        configuration.getCustomPostBPMNParseListeners().add(new AbstractBpmnParseListener() {
            @Override
            public void parseBoundaryTimerEventDefinition(Element timerEventDefinition, boolean interrupting, ActivityImpl timerActivity) {
                timerActivity.addBuiltInListener(ExecutionListener.EVENTNAME_START, execution -> {
                    circuit.open().ifPresent(open -> {
                        throw new PhalaUnreachable("deadline " + timerActivity.getId(), open.describe());
                    });
                    circuit.deadlinesHeldUntil().ifPresent(until -> {
                        throw new DeadlineHeld(until);
                    });
                });
            }
        });
    }

    @Override
    public void postInit(ProcessEngineConfigurationImpl configuration) {
        FailedJobCommandFactory engines = configuration.getFailedJobCommandFactory() != null
                ? configuration.getFailedJobCommandFactory() : new DefaultFailedJobCommandFactory();
        configuration.setFailedJobCommandFactory((jobId, exception) -> StepHeld.in(exception)
                .<Command<Object>>map(held -> context -> hold(context, jobId, held))
                .or(() -> PhalaOutage.in(exception).filter(this::meansUnreachable)
                        .map(outage -> context -> pause(context, jobId, outage, exception)))
                .orElseGet(() -> engines.getCommand(jobId, exception)));
    }

    /**
     * A failure of a call the client may not repeat (one answer, no retries: {@link PhalaCircuit#failed}) pauses only
     * while the circuit is open; otherwise the job fails as any other and its retry reads back before it asks again.
     */
    private boolean meansUnreachable(PhalaApiException outage) {
        return !outage.isOutcomeUnknown() || circuit.open().isPresent();
    }

    /**
     * A job that must not act yet ({@link StepHeld}): a deadline that came due too soon after an outage (due again when
     * the time the outage took is given back), or a step held by the disruption budget. Due again then, retries kept,
     * no incident; the message is the job's exception message in Cockpit, and a step's stage says it too.
     */
    private Object hold(CommandContext context, String jobId, StepHeld held) {
        JobEntity job = context.getJobManager().findJobById(jobId);
        if (job == null) {
            return null;
        }
        job.unlock();
        job.setDuedate(Date.from(held.until()));
        job.setExceptionMessage(held.getMessage());
        ExecutionEntity execution = job.getExecution();
        if (execution != null) {
            held.stage().ifPresent(stage -> execution.setVariable(ProcedureVariables.STAGE, stage));
        }
        log.info("{} (job {})", held.getMessage(), jobId);
        return null;
    }

    private Object pause(CommandContext context, String jobId, PhalaApiException outage, Throwable failure) {
        JobEntity job = context.getJobManager().findJobById(jobId);
        if (job == null) {
            return null;
        }
        Instant now = clock.instant();
        Instant next = circuit.nextProbeAt();
        if (next.isBefore(now.plus(MIN_WAIT))) {
            next = now.plus(MIN_WAIT);
        }
        Duration wait = Duration.between(now, next);
        String where = activityName(job);
        String since = circuit.open().map(o -> o.since().toString()).orElse(now.toString());
        String text = WAITING + " at '" + where + "' since " + since + ", next try at " + next + ": " + outage.getMessage();
        job.unlock();
        job.setDuedate(Date.from(next));
        job.setExceptionMessage(text);
        job.setExceptionStacktrace(ExceptionUtil.getExceptionStacktrace(failure));
        ExecutionEntity execution = job.getExecution();
        int postponed = postponeDeadlines(context, execution, wait, job.getId());
        markWaiting(execution, text);
        log.info("{} (job {}, {} deadline(s) put off by {} ms)", text, jobId, postponed, wait.toMillis());
        return null;
    }

    /** Every boundary timer of the scopes the job waits in, up through the procedures that called its own. */
    private static int postponeDeadlines(CommandContext context, ExecutionEntity execution, Duration wait, String pausedJob) {
        int postponed = 0;
        Set<String> seen = new HashSet<>();
        for (ExecutionEntity e = execution; e != null && seen.add(e.getId()); e = e.getParent() != null ? e.getParent() : e.getSuperExecution()) {
            for (TimerEntity timer : context.getJobManager().findTimersByExecutionId(e.getId())) {
                if (isDeadline(timer) && timer.getDuedate() != null && !timer.getId().equals(pausedJob)) {
                    timer.setDuedate(Date.from(timer.getDuedate().toInstant().plus(wait)));
                    postponed++;
                }
            }
        }
        return postponed;
    }

    /** The variable on the job's process instance and on each procedure that called it (a rollout above its attestation). */
    private static void markWaiting(ExecutionEntity execution, String text) {
        for (ExecutionEntity instance = execution == null ? null : execution.getProcessInstance(); instance != null;
             instance = instance.getSuperExecution() == null ? null : instance.getSuperExecution().getProcessInstance()) {
            instance.setVariableLocal(ProcedureVariables.PHALA_CLOUD_UNREACHABLE, text);
        }
    }

    /** A deadline's start refused: Phala Cloud came back less than the outage's length ago. */
    static final class DeadlineHeld extends StepHeld {

        DeadlineHeld(Instant until) {
            super("Deadline held until " + until + ": Phala Cloud was unreachable, the step gets back the time that took", until, null);
        }
    }

    /** A boundary timer's job: a procedure's deadline (a rollout slot's progress deadline, a heal's), not a step. */
    private static boolean isDeadline(TimerEntity timer) {
        return TimerExecuteNestedActivityJobHandler.TYPE.equals(timer.getJobHandlerType());
    }

    private static String activityName(JobEntity job) {
        ExecutionEntity execution = job.getExecution();
        ActivityImpl activity = execution == null ? null : execution.getActivity();
        if (activity != null && !job.getActivityId().equals(activity.getId()) && execution.getProcessDefinition() != null) {
            activity = execution.getProcessDefinition().findActivity(job.getActivityId());
        }
        if (activity != null && activity.getName() != null) {
            return activity.getName();
        }
        return job.getActivityId() == null ? "?" : job.getActivityId();
    }
}
