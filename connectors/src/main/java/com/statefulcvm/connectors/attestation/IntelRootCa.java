package com.statefulcvm.connectors.attestation;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/**
 * The Intel SGX Root CA, trust anchor of every PCK and collateral chain (valid to 2049-12-31). It ships as a resource;
 * its SHA-256 fingerprint is pinned here as well, so a swapped resource fails loudly instead of moving the trust.
 */
public final class IntelRootCa {

    static final String RESOURCE = "intel-sgx-root-ca.der";
    static final String SHA256_FINGERPRINT = "44a0196b2b99f889b8e149e95b807a350e7424964399e885a7cbb8ccfab674d3";

    private IntelRootCa() {
    }

    public static X509Certificate certificate() {
        return Holder.CERTIFICATE;
    }

    private static final class Holder {

        static final X509Certificate CERTIFICATE = load();

        private static X509Certificate load() {
            try (InputStream in = IntelRootCa.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + RESOURCE + " is missing from the classpath");
                }
                byte[] der = in.readAllBytes();
                String fingerprint = Bytes.hex(MessageDigest.getInstance("SHA-256").digest(der));
                if (!SHA256_FINGERPRINT.equals(fingerprint)) {
                    throw new IllegalStateException("resource " + RESOURCE + " has SHA-256 " + fingerprint
                            + ", not the pinned Intel SGX Root CA " + SHA256_FINGERPRINT);
                }
                return (X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new java.io.ByteArrayInputStream(der));
            } catch (IOException | CertificateException | NoSuchAlgorithmException e) {
                throw new IllegalStateException("cannot load the Intel SGX Root CA", e);
            }
        }
    }
}
