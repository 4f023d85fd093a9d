package com.statefulcvm.delegates.support;

/**
 * A refusal of what an operator asked for or answered (a start with a bad field, a second procedure on a set, an
 * approval without a decision): the operator's mistake, not a fault. Whoever refuses logs one line saying why; the
 * engine logs the exception at DEBUG only, and every path answers the caller with the reason (REST 400/409, a form
 * error in Tasklist) instead of a server error.
 */
public interface OperatorRefusal {

    /** The first refusal in {@code failure}'s chain of causes, if any: the engine wraps what listeners throw. */
    static java.util.Optional<Throwable> in(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof OperatorRefusal) {
                return java.util.Optional.of(cause);
            }
        }
        return java.util.Optional.empty();
    }
}
