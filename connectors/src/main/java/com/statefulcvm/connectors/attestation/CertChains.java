package com.statefulcvm.connectors.attestation;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Intel's certificate chains (PCK leaf, PCK Platform/Processor CA, Root CA; TCB Signing, Root CA): parsed by the
 * JDK, validated here at the verification instant. The validation is RFC 5280's basic path processing for these short,
 * fixed chains (name chaining, validity, CA constraints and path length, no unknown critical extension, revocation
 * by already-trusted CRLs) with each ECDSA P-256 signature checked by {@link EcdsaP256}. The JDK's PKIX validator
 * would do the same but verifies each signature with SunEC at about 1.5 ms, which alone would blow the time budget.
 */
final class CertChains {

    static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final Set<String> UNDERSTOOD_CRITICAL = Set.of("2.5.29.15", "2.5.29.19", "2.5.29.32",
            "2.5.29.17", "2.5.29.37");

    /** Why a chain does not hold; the message is shown to operators. */
    static final class ChainException extends Exception {

        private static final long serialVersionUID = 1L;

        ChainException(String message) {
            super(message);
        }
    }

    /** Certificate signatures already checked in this verification: Intel's CA certificates recur across chains. */
    private final Map<List<X509Certificate>, Boolean> checked = new HashMap<>();

    /** One per verification; it remembers which certificate signatures it has checked. */
    CertChains() {
    }

    static List<X509Certificate> parsePem(String pem, String what) throws ChainException {
        if (pem == null || pem.isBlank()) {
            throw new ChainException(what + " is empty");
        }
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (var cert : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) cert);
            }
            if (out.isEmpty()) {
                throw new ChainException(what + " holds no certificate");
            }
            return out;
        } catch (CertificateException e) {
            throw new ChainException(what + " is not a PEM certificate chain (" + e.getMessage() + ")");
        }
    }

    static X509CRL parseCrl(byte[] der, String what) throws ChainException {
        try {
            return (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(new ByteArrayInputStream(der));
        } catch (java.security.cert.CRLException | CertificateException e) {
            throw new ChainException(what + " is not a DER CRL (" + e.getMessage() + ")");
        }
    }

    /**
     * Validates {@code chain} (leaf first; a trailing copy of the anchor is allowed) up to one of {@code anchors} at
     * {@code at}, and checks each certificate against the trusted CRLs of its issuer.
     *
     * @return the anchor the chain ends in
     */
    X509Certificate validate(List<X509Certificate> chain, List<X509Certificate> anchors, Instant at,
                                    List<X509CRL> trustedCrls, String what) throws ChainException {
        List<X509Certificate> path = new ArrayList<>(chain);
        while (path.size() > 1 && anchors.contains(path.get(path.size() - 1))) {
            path.remove(path.size() - 1);
        }
        if (anchors.contains(path.get(0))) {
            throw new ChainException(what + " has no certificate below the trust anchor");
        }
        X509Certificate top = path.get(path.size() - 1);
        X509Certificate anchor = null;
        for (X509Certificate candidate : anchors) {
            if (candidate.getSubjectX500Principal().equals(top.getIssuerX500Principal())
                    && checkedSignedBy(top, candidate)) {
                anchor = candidate;
                break;
            }
        }
        if (anchor == null) {
            throw new ChainException(what + " does not chain to a trust anchor: " + subject(top) + " is issued by "
                    + top.getIssuerX500Principal().getName() + ", which is no trust anchor that signed it");
        }
        Date date = Date.from(at);
        for (int i = 0; i < path.size(); i++) {
            X509Certificate cert = path.get(i);
            boolean last = i == path.size() - 1;
            X509Certificate issuer = last ? anchor : path.get(i + 1);
            try {
                cert.checkValidity(date);
            } catch (CertificateExpiredException | CertificateNotYetValidException e) {
                throw new ChainException(what + ": certificate " + subject(cert) + " is not valid at " + at
                        + " (valid " + cert.getNotBefore().toInstant() + ".." + cert.getNotAfter().toInstant() + ")");
            }
            if (!cert.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
                throw new ChainException(what + ": certificate " + subject(cert) + " is issued by "
                        + cert.getIssuerX500Principal().getName() + ", not by " + subject(issuer));
            }
            if (!last && !checkedSignedBy(cert, issuer)) {
                throw new ChainException(what + ": the signature of " + subject(cert) + " does not verify with "
                        + subject(issuer) + "'s key");
            }
            requireCa(issuer, i, what);
            Set<String> critical = cert.getCriticalExtensionOIDs();
            if (critical != null && !UNDERSTOOD_CRITICAL.containsAll(critical)) {
                throw new ChainException(what + ": certificate " + subject(cert)
                        + " has a critical extension this verifier does not understand: " + critical);
            }
            for (X509CRL crl : trustedCrls) {
                if (crl.getIssuerX500Principal().equals(cert.getIssuerX500Principal()) && crl.isRevoked(cert)) {
                    throw new ChainException(what + ": certificate " + subject(cert) + " (serial "
                            + cert.getSerialNumber().toString(16) + ") is revoked by the CRL of "
                            + crl.getIssuerX500Principal().getName());
                }
            }
        }
        return anchor;
    }

    /** An issuer must be a CA allowed to sign certificates, with a path length covering the CAs below it. */
    private static void requireCa(X509Certificate issuer, int casBelow, String what) throws ChainException {
        int pathLen = issuer.getBasicConstraints();
        if (pathLen < 0) {
            throw new ChainException(what + ": " + subject(issuer) + " is not a CA");
        }
        if (pathLen < casBelow) {
            throw new ChainException(what + ": " + subject(issuer) + " allows " + pathLen
                    + " CAs below it, the chain has " + casBelow);
        }
        boolean[] usage = issuer.getKeyUsage();
        if (usage != null && (usage.length < 6 || !usage[5])) {
            throw new ChainException(what + ": " + subject(issuer) + " may not sign certificates");
        }
    }

    private boolean checkedSignedBy(X509Certificate cert, X509Certificate issuer) throws ChainException {
        List<X509Certificate> pair = List.of(cert, issuer);
        Boolean known = checked.get(pair);
        if (known == null) {
            known = signedBy(cert, issuer);
            checked.put(pair, known);
        }
        return known;
    }

    static boolean signedBy(X509Certificate cert, X509Certificate issuer) throws ChainException {
        if (!ECDSA_WITH_SHA256.equals(cert.getSigAlgOID())) {
            throw new ChainException(subject(cert) + " is signed with " + cert.getSigAlgName()
                    + ", not ECDSA P-256 with SHA-256");
        }
        try {
            return verifyDer(issuer, cert.getTBSCertificate(), cert.getSignature());
        } catch (CertificateException e) {
            throw new ChainException(subject(cert) + " cannot be re-encoded: " + e.getMessage());
        }
    }

    /** A CRL's signature; false also for a CRL that is not ECDSA P-256 with SHA-256. */
    static boolean signedBy(X509CRL crl, X509Certificate issuer) {
        if (!ECDSA_WITH_SHA256.equals(crl.getSigAlgOID())) {
            return false;
        }
        try {
            return verifyDer(issuer, crl.getTBSCertList(), crl.getSignature());
        } catch (java.security.cert.CRLException | ChainException e) {
            return false;
        }
    }

    private static boolean verifyDer(X509Certificate issuer, byte[] tbs, byte[] derSignature) throws ChainException {
        try {
            List<Der.Tlv> rs = Der.read(derSignature).children();
            if (rs.size() != 2) {
                return false;
            }
            byte[] raw = new byte[64];
            copyUnsigned(new BigInteger(rs.get(0).content()), raw, 0);
            copyUnsigned(new BigInteger(rs.get(1).content()), raw, 32);
            return EcdsaP256.verify(EcdsaP256.key(issuer.getPublicKey()), tbs, raw);
        } catch (IllegalArgumentException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new ChainException(subject(issuer) + "'s key cannot verify: " + e.getMessage());
        }
    }

    private static void copyUnsigned(BigInteger value, byte[] out, int offset) {
        if (value.signum() <= 0 || value.bitLength() > 256) {
            throw new IllegalArgumentException("signature component out of range");
        }
        byte[] bytes = value.toByteArray();
        int skip = bytes.length > 32 ? bytes.length - 32 : 0;
        System.arraycopy(bytes, skip, out, offset + 32 - (bytes.length - skip), bytes.length - skip);
    }

    static String subject(X509Certificate cert) {
        String name = cert.getSubjectX500Principal().getName();
        for (String part : name.split(",")) {
            if (part.startsWith("CN=")) {
                return "'" + part.substring(3) + "'";
            }
        }
        return "'" + name + "'";
    }
}
