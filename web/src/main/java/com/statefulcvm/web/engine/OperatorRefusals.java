package com.statefulcvm.web.engine;

import com.statefulcvm.delegates.support.OperatorRefusal;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandContextFactory;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.springframework.stereotype.Component;

import java.util.ArrayList;

/**
 * A refusal of an operator's input ({@link OperatorRefusal}: a start check's, an approval listener's) is a message, not
 * an incident, on every path into the engine (its REST API, Tasklist's, the Java API):
 * <ul>
 *   <li>the engine logs it at DEBUG instead of ERROR with a stack trace (ENGINE-16004); whoever refused has logged one
 *       line saying why;</li>
 *   <li>a refusal thrown by a task listener reaches the caller as itself, not wrapped in the engine's ENGINE-03051
 *       "exception while invoking the TaskListener": the REST resources answer a form-field refusal with 400 and its
 *       message (Tasklist shows it on the form) where they answered the wrapper with 500.</li>
 * </ul>
 */
@Component
class OperatorRefusals extends AbstractProcessEnginePlugin {

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
        configuration.getCustomPreCommandInterceptorsTxRequired().add(new UnwrapRefusals());
    }

    /** Logs a refusal as the engine logs a bad user request: at DEBUG. */
    static final class RefusalAwareCommandContext extends CommandContext {

        RefusalAwareCommandContext(ProcessEngineConfigurationImpl configuration) {
            super(configuration);
        }

        @Override
        protected boolean shouldLogFine(Throwable exception) {
            return super.shouldLogFine(exception) || OperatorRefusal.in(exception).isPresent();
        }
    }

    /** The outermost interceptor: rethrows the refusal a listener threw instead of the engine's wrapper around it. */
    static final class UnwrapRefusals extends CommandInterceptor {

        @Override
        public <T> T execute(Command<T> command) {
            try {
                return next.execute(command);
            } catch (RuntimeException wrapped) {
                if (OperatorRefusal.in(wrapped).orElse(null) instanceof RuntimeException refusal && refusal != wrapped) {
                    throw refusal;
                }
                throw wrapped;
            }
        }
    }
}
