package com.statefulcvm.web.e2e;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.function.Supplier;

/**
 * A real cluster started once per test class (register it with {@code @RegisterExtension} on a static field): the
 * class is skipped when the assumption fails (the workload is not installed); the cluster starts before the Spring
 * context, whose properties name its ports, by whichever of the extension and {@code @DynamicPropertySource} comes
 * first, and is closed after the class.
 */
final class ClassFixture<T extends AutoCloseable> implements BeforeAllCallback, AfterAllCallback {

    private final Runnable assumption;
    private final Supplier<T> start;
    private T running;

    ClassFixture(Runnable assumption, Supplier<T> start) {
        this.assumption = assumption;
        this.start = start;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        assumption.run();
        get();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    synchronized T get() {
        if (running == null) {
            running = start.get();
        }
        return running;
    }

    synchronized void close() throws Exception {
        if (running != null) {
            running.close();
            running = null;
        }
    }
}
