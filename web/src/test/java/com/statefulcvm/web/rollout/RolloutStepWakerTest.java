package com.statefulcvm.web.rollout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceRegistry;
import com.statefulcvm.fleet.healing.MonitorLeases;
import com.statefulcvm.web.config.HealingProperties;
import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.healing.HealthMonitorScheduler;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.EventSubscription;
import org.camunda.bpm.engine.runtime.VariableInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.stubbing.Answer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.after;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.timeout;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Which waiting rollout steps the waker wakes in one tick, with the engine and Phala stood in: a step whose probe is
 * due and one whose CVM settled or is gone, not one whose probe is still ahead or whose CVM is still updating; all the
 * CVMs in one status batch; the steps of one rollout side by side; a step whose woken continuation failed left to its
 * fallback timer, a conflict tried again.
 */
class RolloutStepWakerTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");

    private final RuntimeService runtime = mock(RuntimeService.class, RETURNS_DEEP_STUBS);
    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final InstanceRegistry registry = mock(InstanceRegistry.class);
    private final MonitorLeases leases = mock(MonitorLeases.class);
    private final HealthMonitorScheduler monitors = mock(HealthMonitorScheduler.class);
    private final List<EventSubscription> cvmWaits = new ArrayList<>();
    private final List<EventSubscription> probeWaits = new ArrayList<>();
    private final List<VariableInstance> variables = new ArrayList<>();
    private final Map<String, BatchStatus> statuses = new HashMap<>();
    private RolloutStepWaker waker;

    @BeforeEach
    void setUp() {
        when(runtime.createEventSubscriptionQuery().eventType("message").eventName("CvmChanged").list()).thenReturn(cvmWaits);
        when(runtime.createEventSubscriptionQuery().eventType("message").eventName("ProbeDue").list()).thenReturn(probeWaits);
        when(runtime.createVariableInstanceQuery().executionIdIn(any(String[].class)).variableNameIn(any(String[].class)).list())
                .thenReturn(variables);
        when(phala.statusBatch(anyList())).thenAnswer(call -> {
            Map<String, BatchStatus> answer = new HashMap<>();
            call.<List<String>>getArgument(0).forEach(vm -> {
                if (statuses.containsKey(vm)) {
                    answer.put(vm, statuses.get(vm));
                }
            });
            return answer;
        });
        when(registry.instance(anyString(), anyInt())).thenAnswer(call -> Optional.of(new InstanceRecord(call.getArgument(0),
                call.getArgument(1), call.getArgument(0) + "-" + call.getArgument(1), "id", "vm-" + call.getArgument(0) + "-"
                + call.getArgument(1), "i", "h", "updating", null, null, NOW, null, null, null)));
        when(monitors.node()).thenReturn("node-a");
        when(leases.now()).thenReturn(NOW);
        when(leases.heartbeat(anyString(), any(), any())).thenReturn(List.of("node-a"));
        OrchestratorProperties properties = new OrchestratorProperties();
        properties.getRollout().setCvmPollInterval(Duration.ofHours(1)); // the test ticks by hand
        waker = new RolloutStepWaker(runtime, phala, registry, leases, monitors, properties, new HealingProperties(),
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void stop() {
        waker.destroy();
    }

    private void waitsFor(List<EventSubscription> waits, String execution, String pid, String variable, Object value) {
        EventSubscription s = mock(EventSubscription.class);
        when(s.getExecutionId()).thenReturn(execution);
        when(s.getProcessInstanceId()).thenReturn(pid);
        waits.add(s);
        VariableInstance v = mock(VariableInstance.class);
        when(v.getExecutionId()).thenReturn(execution);
        when(v.getName()).thenReturn(variable);
        when(v.getValue()).thenReturn(value);
        variables.add(v);
    }

    private static BatchStatus status(String vm, String status, boolean inProgress) {
        return new BatchStatus(vm, status, "1s", inProgress, null, null, null, null, null);
    }

    @Test
    void aDueProbeAndASettledOrVanishedCvmAreWokenTheOthersWait() {
        waitsFor(probeWaits, "probe-due", "p1", "nextProbeAt", Date.from(NOW.minusMillis(1)));
        waitsFor(probeWaits, "probe-ahead", "p2", "nextProbeAt", Date.from(NOW.plusSeconds(1)));
        waitsFor(cvmWaits, "cvm-settled", "p3", "awaitedSlot", "web-1");
        waitsFor(cvmWaits, "cvm-updating", "p4", "awaitedSlot", "web-2");
        waitsFor(cvmWaits, "cvm-gone", "p5", "awaitedSlot", "web-3");
        statuses.put("vm-web-1", status("vm-web-1", "running", false));
        statuses.put("vm-web-2", status("vm-web-2", "updating", true));

        waker.tick();

        verify(runtime, timeout(5000)).messageEventReceived("ProbeDue", "probe-due");
        verify(runtime, timeout(5000)).messageEventReceived("CvmChanged", "cvm-settled");
        verify(runtime, timeout(5000)).messageEventReceived("CvmChanged", "cvm-gone");
        verify(runtime, after(300).never()).messageEventReceived(anyString(), eq("probe-ahead"));
        verify(runtime, never()).messageEventReceived(anyString(), eq("cvm-updating"));
        verify(phala, times(1)).statusBatch(anyList());
    }

    @Test
    void aStepWhoseContinuationFailedIsLeftToItsFallbackTimerAndAConflictIsTriedAgain() {
        waitsFor(probeWaits, "fails", "p1", "nextProbeAt", Date.from(NOW.minusMillis(1)));
        waitsFor(probeWaits, "conflicts", "p2", "nextProbeAt", Date.from(NOW.minusMillis(1)));
        doThrow(new IllegalStateException("Phala said 500")).when(runtime).messageEventReceived("ProbeDue", "fails");
        doThrow(new OptimisticLockingException("concurrent")).when(runtime).messageEventReceived("ProbeDue", "conflicts");
        when(runtime.createEventSubscriptionQuery().executionId("fails").eventName("ProbeDue").count()).thenReturn(1L);

        waker.tick();
        verify(runtime, timeout(5000)).messageEventReceived("ProbeDue", "fails");
        verify(runtime, timeout(5000).times(RolloutStepWaker.ATTEMPTS)).messageEventReceived("ProbeDue", "conflicts");
        verify(runtime, after(300).times(RolloutStepWaker.ATTEMPTS)).messageEventReceived("ProbeDue", "conflicts");
        waker.tick();

        verify(runtime, timeout(5000).times(2 * RolloutStepWaker.ATTEMPTS)).messageEventReceived("ProbeDue", "conflicts");
        verify(runtime, after(300).times(1)).messageEventReceived("ProbeDue", "fails");
    }

    /**
     * The steps of one wave are woken side by side, not one after the other: the first step's wake is held until the
     * second one's has begun (woken in turn, the second would wait for the first, which waits for it, and time out).
     */
    @Test
    void theStepsOfOneRolloutAreWokenSideBySide() throws Exception {
        waitsFor(probeWaits, "step-1", "p1", "nextProbeAt", Date.from(NOW.minusMillis(1)));
        waitsFor(probeWaits, "step-2", "p1", "nextProbeAt", Date.from(NOW.minusMillis(1)));
        CountDownLatch bothWoken = new CountDownLatch(2);
        AtomicInteger metTheOther = new AtomicInteger();
        Answer<Void> wake = call -> {
            bothWoken.countDown();
            if (bothWoken.await(5, TimeUnit.SECONDS)) {
                metTheOther.incrementAndGet();
            }
            return null;
        };
        doAnswer(wake).when(runtime).messageEventReceived("ProbeDue", "step-1");
        doAnswer(wake).when(runtime).messageEventReceived("ProbeDue", "step-2");

        waker.tick();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(metTheOther).as("wakes in progress together").hasValue(2));
    }
}
