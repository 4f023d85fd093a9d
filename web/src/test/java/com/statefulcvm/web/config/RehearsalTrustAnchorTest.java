package com.statefulcvm.web.config;

import com.statefulcvm.simulator.evidence.SimulatedTdxAuthority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A rehearsal of production against a standalone simulator: its trust anchor (the PEM its /trust-anchor serves) is
 * trusted only beside a Phala API on this machine; beside any other, start-up is refused naming the setting.
 */
class RehearsalTrustAnchorTest {

    private final SimulatedTdxAuthority simulator = new SimulatedTdxAuthority();

    @Test
    void theSimulatorsAnchorIsTrustedBesideALoopbackPhalaApi(@TempDir Path dir) throws Exception {
        Path pem = Files.writeString(dir.resolve("sim-root.pem"), simulator.rootPem());
        assertThat(RehearsalTrustAnchor.read(pem.toString(), "http://127.0.0.1:8081/simulator/api/v1"))
                .isEqualTo(simulator.rootCertificate());
        assertThat(RehearsalTrustAnchor.read(null, "https://cloud-api.phala.com/api/v1")).isNull();
    }

    @Test
    void besideAnyOtherPhalaApiItIsRefused(@TempDir Path dir) throws Exception {
        Path pem = Files.writeString(dir.resolve("sim-root.pem"), simulator.rootPem());
        for (String notHere : new String[] {"https://cloud-api.phala.com/api/v1", "http://10.0.0.5:8081/simulator/api/v1",
                "http://simulator.internal/api/v1", "not a url"}) {
            assertThatThrownBy(() -> RehearsalTrustAnchor.read(pem.toString(), notHere)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("orchestrator.attestation.rehearsal-trust-anchor is set, but orchestrator.phala.base-url")
                    .hasMessageContaining("never beside the real Phala Cloud");
        }
    }

    @Test
    void aFileThatIsNoCertificateNamesTheCause(@TempDir Path dir) throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate");
        assertThatThrownBy(() -> RehearsalTrustAnchor.read(junk.toString(), "http://127.0.0.1:8081/api/v1"))
                .hasMessageContaining("holds no X.509 certificate");
        assertThatThrownBy(() -> RehearsalTrustAnchor.read(dir.resolve("missing.pem").toString(), "http://127.0.0.1:8081/api/v1"))
                .hasMessageContaining("cannot read");
    }
}
