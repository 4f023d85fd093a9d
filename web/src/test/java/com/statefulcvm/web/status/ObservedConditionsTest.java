package com.statefulcvm.web.status;

import com.statefulcvm.fleet.AttestationSpec;
import com.statefulcvm.fleet.ConditionType;
import com.statefulcvm.fleet.InstanceConditions;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/**
 * Found by the chaos checker (seed 18, "serving unattested"): after a new boot the monitor forgets the last verdict and
 * re-attests; the next probe found the instance healthy and it was Ready again, attested by nobody, until the
 * re-attestation ended.
 */
class ObservedConditionsTest {

    private static final Instant NOW = Instant.parse("2026-11-26T18:00:00Z");
    private final InstanceConditions conditions = mock(InstanceConditions.class);
    private final ObservedConditions observed = new ObservedConditions(conditions, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aHealthyBootNotAttestedYetIsNotReadyWhereAttestationIsRequired() {
        observed.track(set(true), List.of(healthy(null)));
        verify(conditions).set("web", 0, ConditionType.Ready, false, "awaiting attestation of this boot");
        verify(conditions, never()).set(eq("web"), eq(0), eq(ConditionType.Ready), eq(true), anyString());
    }

    @Test
    void anAttestedBootIsReadyAndWithoutRequiredAttestationAHealthyOneIs() {
        observed.track(set(true), List.of(healthy(true)));
        verify(conditions).set("web", 0, ConditionType.Ready, true, "healthy");
        observed.track(set(false), List.of(healthy(null)));
        verify(conditions, never()).set(eq("web"), eq(0), eq(ConditionType.Ready), eq(false), anyString());
    }

    private static ReplicaSetSpec set(boolean attestationRequired) {
        ReplicaSetSpec spec = new ReplicaSetSpec();
        spec.setName("web");
        AttestationSpec attestation = new AttestationSpec();
        attestation.setRequired(attestationRequired);
        spec.setAttestation(attestation);
        return spec;
    }

    private static InstanceRecord healthy(Boolean attested) {
        return new InstanceRecord("web", 0, "web-0", "cvm", "vm", "iid", "hash", "running", true, "Healthy", NOW,
                attested, attested == null ? null : "admitted", attested == null ? null : NOW.minusSeconds(5));
    }
}
