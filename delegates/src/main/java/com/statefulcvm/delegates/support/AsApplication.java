package com.statefulcvm.delegates.support;

import org.camunda.bpm.engine.impl.ServiceImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;

import java.util.function.Supplier;

/**
 * Engine calls the application makes on a caller's behalf once it has checked the caller's role itself: a pause sent
 * for an operator, the heal counter of the set's health monitor touched by an operator's heal. They run in one engine
 * command with the caller's authorization checks off, so that no role needs UPDATE_INSTANCE (which would let it write
 * any variable of any instance), while the caller stays the authenticated user the engine records (user operation log,
 * start user).
 */
public final class AsApplication {

    private AsApplication() {
    }

    /** {@code service}: any of the engine's services (they share one command executor). */
    public static <T> T call(Object service, Supplier<T> work) {
        CommandExecutor executor = ((ServiceImpl) service).getCommandExecutor();
        return executor.execute(context -> context.runWithoutAuthorization(work::get));
    }

    public static void run(Object service, Runnable work) {
        call(service, () -> {
            work.run();
            return null;
        });
    }
}
