package com.statefulcvm.connectors.phala;

import java.time.Duration;

/**
 * Told of every HTTP exchange with the Phala Cloud API and of every retry, for metrics. The application adapts it to
 * its metrics library; the connector itself depends on none.
 */
public interface PhalaCallObserver {

    PhalaCallObserver NONE = new PhalaCallObserver() {
    };

    /**
     * One HTTP attempt ended.
     *
     * @param operation the API method called ({@code getApp}, {@code updateCompose}, ...), never an id
     * @param status    the HTTP status, or 0 when no answer came (connect failure, timeout)
     */
    default void exchanged(String operation, int status, Duration took) {
    }

    /** An attempt failed transiently and the call is tried again after a wait. */
    default void retried(String operation, int status) {
    }
}
