package com.statefulcvm.web.engine;

import com.statefulcvm.delegates.support.OperatorRefusal;
import com.statefulcvm.web.security.EngineCallRefused;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.context.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandContextFactory;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/**
 * A refusal of an operator's input ({@link OperatorRefusal}: a start check's, an approval listener's), a call this
 * deployment refuses ({@link EngineCallRefused}: a guard's) and an engine authorization failure are messages, not
 * incidents, on every path into the engine (its REST API, Tasklist's, the Java API):
 * <ul>
 *   <li>the engine logs them at DEBUG instead of ERROR with a stack trace (ENGINE-16004), and each is logged once, one
 *       line at INFO without a stack trace: by whoever refused an operator's input, or here for the others (any
 *       logged-in user could otherwise fill the log with 14 KB a request);</li>
 *   <li>a refusal thrown by a task listener reaches the caller as itself, not wrapped in the engine's ENGINE-03051
 *       "exception while invoking the TaskListener": the REST resources answer a form-field refusal with 400 and its
 *       message (Tasklist shows it on the form) where they answered the wrapper with 500;</li>
 *   <li>input the engine refuses with a plain exception, which its REST resources answer 500 (a variable in Java's
 *       serialization format, ENGINE-17007), reaches the caller as a bad user request: 400 with the reason.</li>
 * </ul>
 */
@Component
class OperatorRefusals extends AbstractProcessEnginePlugin {

    private static final Logger log = LoggerFactory.getLogger(OperatorRefusals.class);

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        CommandContextFactory contexts = new CommandContextFactory() {
            @Override
            public CommandContext createCommandContext() {
                return new RefusalAwareCommandContext(processEngineConfiguration);
            }
        };
        // the engine hands itself only to a factory it creates
        contexts.setProcessEngineConfiguration(configuration);
        configuration.setCommandContextFactory(contexts);
        if (configuration.getCustomPreCommandInterceptorsTxRequired() == null) {
            configuration.setCustomPreCommandInterceptorsTxRequired(new ArrayList<>());
        }
        configuration.getCustomPreCommandInterceptorsTxRequired().add(new UnwrapRefusals(configuration));
        if (configuration.getCustomPreCommandInterceptorsTxRequiresNew() == null) {
            configuration.setCustomPreCommandInterceptorsTxRequiresNew(new ArrayList<>());
        }
        configuration.getCustomPreCommandInterceptorsTxRequiresNew().add(new UnwrapRefusals(configuration));
    }

    /** Logs a refusal as the engine logs a bad user request: at DEBUG. */
    static final class RefusalAwareCommandContext extends CommandContext {

        RefusalAwareCommandContext(ProcessEngineConfigurationImpl configuration) {
            super(configuration);
        }

        @Override
        protected boolean shouldLogFine(Throwable exception) {
            return super.shouldLogFine(exception) || OperatorRefusal.in(exception).isPresent()
                    || exception instanceof EngineCallRefused || badInput(exception);
        }
    }

    private static final String JAVA_SERIALIZATION = "application/x-java-serialized-object";

    /** The engine's codes of input it refuses with a plain ProcessEngineException (which REST answers 500). */
    private static final List<String> BAD_INPUT_CODES = List.of(
            "ENGINE-17007" // a variable in Java's serialization format, which this deployment does not accept
    );

    static boolean badInput(Throwable exception) {
        return exception instanceof ProcessEngineException && !(exception instanceof BadUserRequestException)
                && exception.getMessage() != null && BAD_INPUT_CODES.stream().anyMatch(exception.getMessage()::startsWith);
    }

    /** The outermost interceptor: rethrows the refusal a listener threw instead of the engine's wrapper around it. */
    static final class UnwrapRefusals extends CommandInterceptor {

        private final ProcessEngineConfigurationImpl configuration;

        UnwrapRefusals(ProcessEngineConfigurationImpl configuration) {
            this.configuration = configuration;
        }

        @Override
        public <T> T execute(Command<T> command) {
            // a command run inside another is refused through the outer one, which logs it
            boolean outermost = Context.getCommandContext() == null;
            try {
                return next.execute(command);
            } catch (RuntimeException wrapped) {
                if (OperatorRefusal.in(wrapped).orElse(null) instanceof RuntimeException refusal && refusal != wrapped) {
                    // its thrower has logged it
                    throw refusal;
                }
                if (OperatorRefusal.in(wrapped).isPresent()) {
                    throw wrapped;
                }
                RuntimeException answered = badInput(wrapped) ? new BadUserRequestException(wrapped.getMessage()
                        + " (a value in " + JAVA_SERIALIZATION + " is refused here: send an object as application/json)") : wrapped;
                if (outermost && (answered instanceof EngineCallRefused || answered instanceof AuthorizationException
                        || answered instanceof BadUserRequestException && answered != wrapped)) {
                    log.info("Refused {} for {}: {}", command.getClass().getSimpleName(), caller(), answered.getMessage());
                }
                throw answered;
            }
        }

        private String caller() {
            var authentication = configuration.getIdentityService().getCurrentAuthentication();
            return authentication == null || authentication.getUserId() == null ? "the application"
                    : "user '" + authentication.getUserId() + "'";
        }
    }
}
