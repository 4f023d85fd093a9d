package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.health.HealthProbe;
import com.statefulcvm.connectors.health.InstanceUrlTemplate;
import com.statefulcvm.connectors.health.ProbeResult;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRole;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.RoleProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Asks an instance for its role in the workload, through the set's role probe (or its workload type's default): an
 * HTTP GET through the gateway URL of exactly that instance, as Patroni's {@code GET /leader} answers it. 200 is the
 * leader, any other HTTP status a replica, no answer (refused, timed out, not booted) unknown. The probe uses the
 * set's health-check timeout.
 */
@Component
public class InstanceRoles {

    private static final Logger log = LoggerFactory.getLogger(InstanceRoles.class);

    private static final int LEADER_STATUS = 200;

    private final HealthProbe probe;
    private final InstanceUrlTemplate urls;

    public InstanceRoles(HealthProbe probe, InstanceUrlTemplate urls) {
        this.probe = probe;
        this.urls = urls;
    }

    public InstanceRole roleOf(ReplicaSetSpec spec, CvmInfo cvm) {
        Optional<Endpoint> endpoint = endpointOf(spec);
        if (endpoint.isEmpty()) {
            return InstanceRole.UNKNOWN;
        }
        if (cvm.instanceId() == null || cvm.instanceId().isBlank()) {
            return InstanceRole.UNKNOWN; // not booted: nothing to ask
        }
        URI url;
        try {
            url = urls.resolve(cvm, endpoint.get().port(), endpoint.get().path());
        } catch (IllegalArgumentException e) {
            log.warn("no role probe URL for CVM {} of set {}: {}", cvm.name(), spec.getName(), e.getMessage());
            return InstanceRole.UNKNOWN;
        }
        ProbeResult result = probe.probe(url, LEADER_STATUS, Duration.ofSeconds(spec.getHealthCheck().getTimeoutSeconds()));
        if (!result.answered()) {
            log.debug("role probe of CVM {} ({}): {}", cvm.name(), url, result.detail());
            return InstanceRole.UNKNOWN;
        }
        return result.statusCode() == LEADER_STATUS ? InstanceRole.LEADER : InstanceRole.REPLICA;
    }

    /** The set's own role probe when set, else its workload type's (patroni's: GET /leader on 8008); empty when neither has one. */
    private static Optional<Endpoint> endpointOf(ReplicaSetSpec spec) {
        RoleProbe own = spec.getRoleProbe();
        if (own != null && own.isSet()) {
            return Optional.of(new Endpoint(own.getPort(), own.getPath()));
        }
        RoleProbe type = spec.workload().getRoleProbe();
        return type != null && type.isSet() ? Optional.of(new Endpoint(type.getPort(), type.getPath())) : Optional.empty();
    }

    private record Endpoint(int port, String path) {
    }
}
