package com.statefulcvm.web;

import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.exception.NullValueException;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;

public final class E2eSupport {

    private E2eSupport() {
    }

    /** The client and the probe URLs embed the port, so the test fixes a free one before the context starts. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * For a {@code @DynamicPropertySource}: the application on a port fixed before the context starts, with an
     * in-memory database of the test's own (two contexts sharing one would steal each other's engine jobs), waiting
     * for a row lock as long as the application's own H2 does (LOCK_TIMEOUT, application.yaml).
     */
    public static void onFreePortWithDatabase(DynamicPropertyRegistry registry, String database) {
        int port = freePort();
        registry.add("server.port", () -> port);
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    }

    /**
     * Ends every running instance of a process between tests. The job executor keeps working meanwhile: an instance
     * may end, or its parent (a rollback is a call activity) may take it along, between the query and the delete,
     * and a delete may collide with a job's transaction; none of that should fail the test that just passed.
     */
    public static void deleteRunning(RuntimeService runtime, String processKey) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<String> roots = runtime.createProcessInstanceQuery().processDefinitionKey(processKey).list().stream()
                    .filter(p -> p.getId().equals(p.getRootProcessInstanceId()))
                    .map(ProcessInstance::getId).toList();
            roots.forEach(id -> deleteIfRunning(runtime, id));
            return runtime.createProcessInstanceQuery().processDefinitionKey(processKey).count() == 0;
        });
    }

    /**
     * One instance, tolerating that it has ended already or ends meanwhile (the engine then finds no executions to
     * delete), and retrying while a job holds it.
     */
    public static void deleteIfRunning(RuntimeService runtime, String processInstanceId) {
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsMatching(e -> e instanceof OptimisticLockingException || e instanceof NullValueException)
                .until(() -> {
                    runtime.deleteProcessInstanceIfExists(processInstanceId, "test cleanup", false, true, false, false);
                    return runtime.createProcessInstanceQuery().processInstanceId(processInstanceId).count() == 0;
                });
    }
}
