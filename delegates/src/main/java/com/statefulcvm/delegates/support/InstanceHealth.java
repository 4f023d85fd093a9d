package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.HealthCheck;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Probes one CVM as its set's health check says, through the gateway URL of exactly that instance. */
@Component
public class InstanceHealth {

    private final HealthProbe probe;
    private final InstanceUrlTemplate urls;

    public InstanceHealth(HealthProbe probe, InstanceUrlTemplate urls) {
        this.probe = probe;
        this.urls = urls;
    }

    public ProbeResult probe(ReplicaSetSpec spec, CvmInfo cvm) {
        if (cvm.instanceId() == null) {
            return notBooted();
        }
        HealthCheck check = spec.getHealthCheck();
        URI url = urls.resolve(cvm, check.getHttp().getPort(), check.getHttp().getPath());
        return probe.probe(url, check.getHttp().getExpectStatus(), Duration.ofSeconds(check.getTimeoutSeconds()));
    }

    /** The same probe, answered without a thread waiting for it; never completes exceptionally. */
    public CompletableFuture<ProbeResult> probeAsync(ReplicaSetSpec spec, CvmInfo cvm) {
        if (cvm.instanceId() == null) {
            return CompletableFuture.completedFuture(notBooted());
        }
        try {
            HealthCheck check = spec.getHealthCheck();
            URI url = urls.resolve(cvm, check.getHttp().getPort(), check.getHttp().getPath());
            return probe.probeAsync(url, check.getHttp().getExpectStatus(), Duration.ofSeconds(check.getTimeoutSeconds()));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new ProbeResult(false, ProbeResult.NO_ANSWER, "probe failed: " + e.getMessage(),
                    Duration.ZERO));
        }
    }

    private static ProbeResult notBooted() {
        return new ProbeResult(false, ProbeResult.NO_ANSWER, "the CVM has no instance_id yet (not booted)", Duration.ZERO);
    }
}
