package com.statefulcvm.web.healing;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.Gateway;
import com.statefulcvm.delegates.support.InstanceHealth;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** However many probes the rounds ask for, at most the limit are in flight, every one is answered, none throws. */
class ProbeLimiterTest {

    private final ExecutorService callbacks = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        callbacks.shutdownNow();
    }

    /** A probe that answers only when the test says so, counting how many wait at once. */
    static final class HeldProbe implements HealthProbe {
        final ConcurrentLinkedQueue<CompletableFuture<ProbeResult>> open = new ConcurrentLinkedQueue<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        @Override
        public ProbeResult probe(URI url, int expectStatus, Duration timeout) {
            throw new UnsupportedOperationException("the monitor never blocks on a probe");
        }

        @Override
        public CompletableFuture<ProbeResult> probeAsync(URI url, int expectStatus, Duration timeout) {
            if (url.getPath().contains("broken")) {
                throw new IllegalStateException("broken probe");
            }
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            CompletableFuture<ProbeResult> answer = new CompletableFuture<>();
            open.add(answer);
            return answer.whenComplete((r, e) -> inFlight.decrementAndGet());
        }

        void answerAll() {
            CompletableFuture<ProbeResult> next;
            while ((next = open.poll()) != null) {
                next.complete(new ProbeResult(true, 200, "HTTP 200", Duration.ofMillis(1)));
            }
        }
    }

    private static CvmInfo cvm(int i) {
        return new CvmInfo("id-" + i, "web-" + i, "app", "vm-" + i, "inst-" + i, "running", false, null, "h", null, null, null, null,
                new Gateway("sim.local", null), null, null, null, null, null, null, null);
    }

    @Test
    void atMostTheLimitAreInFlightAndEveryProbeIsAnswered() {
        HeldProbe probe = new HeldProbe();
        ProbeLimiter limiter = new ProbeLimiter(new InstanceHealth(probe, new InstanceUrlTemplate("http://h/{instanceId}-{port}{path}")),
                3, callbacks);
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("web");
        List<CompletableFuture<ProbeResult>> results = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            results.add(limiter.probe(spec, cvm(i)));
        }
        assertThat(limiter.inFlight()).isEqualTo(3);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            probe.answerAll();
            return results.stream().allMatch(CompletableFuture::isDone);
        });
        assertThat(probe.most.get()).isEqualTo(3);
        assertThat(results).allSatisfy(r -> assertThat(r.join().healthy()).isTrue());
        assertThat(limiter.inFlight()).isZero();
    }

    @Test
    void aProbeThatThrowsIsAnUnhealthyAnswerAndFreesItsPlace() {
        HeldProbe probe = new HeldProbe();
        ProbeLimiter limiter = new ProbeLimiter(new InstanceHealth(probe, new InstanceUrlTemplate("http://h/{instanceId}{path}")),
                1, callbacks);
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("web");
        spec.getHealthCheck().getHttp().setPath("/broken");
        ProbeResult broken = limiter.probe(spec, cvm(0)).join();
        assertThat(broken.healthy()).isFalse();
        assertThat(broken.detail()).contains("broken probe");
        await().atMost(Duration.ofSeconds(10)).until(() -> limiter.inFlight() == 0);
    }
}
