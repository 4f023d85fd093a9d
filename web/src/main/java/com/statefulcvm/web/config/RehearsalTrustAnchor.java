package com.statefulcvm.web.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * {@code orchestrator.attestation.rehearsal-trust-anchor}: the trust anchor of a standalone simulator, for a rehearsal of
 * the production profile against it. It is refused, and start-up with it, unless the Phala API is on this machine: a
 * deployment that trusts the simulator's test CA beside the real service would admit evidence anyone with that CA's
 * key signed.
 */
public final class RehearsalTrustAnchor {

    private RehearsalTrustAnchor() {
    }

    /**
     * @return the certificate, or null when none is configured
     * @throws IllegalStateException naming the setting and the cause: a Phala API that is not this machine, a file that
     *                               cannot be read, or no certificate in it
     */
    public static X509Certificate read(String file, String phalaBaseUrl) {
        if (file == null || file.isBlank()) {
            return null;
        }
        if (!PhalaTarget.isLocal(phalaBaseUrl)) {
            throw new IllegalStateException("orchestrator.attestation.rehearsal-trust-anchor is set, but orchestrator.phala.base-url ("
                    + phalaBaseUrl + ") is not this machine: a rehearsal's trust anchor is trusted only beside a simulator on a"
                    + " loopback address, never beside the real Phala Cloud");
        }
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (IOException e) {
            throw new IllegalStateException("orchestrator.attestation.rehearsal-trust-anchor: cannot read " + file + ": " + e.getMessage(), e);
        } catch (CertificateException | ClassCastException e) {
            throw new IllegalStateException("orchestrator.attestation.rehearsal-trust-anchor: " + file + " holds no X.509 certificate in"
                    + " PEM or DER: " + e.getMessage(), e);
        }
    }
}
