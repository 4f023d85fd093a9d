package com.statefulcvm.web;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngines;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Points Camunda's per-JVM engine registry at the engine of the test's own application context before each test.
 *
 * <p>Engine REST and the webapps find their engine by name in the static {@link ProcessEngines} map, and closing an
 * engine removes its name from that map whoever holds it now. When one test class closes its context (an
 * {@code @DirtiesContext} workload test, a startup test) while another class's context stays cached, the cached
 * context's {@code /engine-rest} answers "Process engine default not available" from then on: the web tests failed
 * that way depending only on the order in which surefire ran them. Registered in META-INF/spring.factories.
 */
public class CurrentProcessEngine implements TestExecutionListener {

    @Override
    public void prepareTestInstance(TestContext context) {
        register(context);
    }

    @Override
    public void beforeTestMethod(TestContext context) {
        register(context);
    }

    private static void register(TestContext context) {
        if (!context.hasApplicationContext()) {
            return;
        }
        ProcessEngine engine = context.getApplicationContext().getBeanProvider(ProcessEngine.class).getIfAvailable();
        if (engine != null && ProcessEngines.getProcessEngines().get(engine.getName()) != engine) {
            ProcessEngines.registerProcessEngine(engine);
        }
    }
}
