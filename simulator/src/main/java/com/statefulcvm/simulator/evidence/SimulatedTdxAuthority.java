package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.unhex;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The simulator's stand-in for Intel's SGX/TDX attestation PKI, generated afresh at every simulator start (keys live
 * only in memory): a root CA, a PCK platform CA, the simulated platform's PCK certificate (with Intel's SGX extension:
 * FMSPC, PCE-ID, TCB component SVNs, PCESVN) and a TCB signing certificate for the collateral, plus the CRLs of both
 * CAs. Every name says "NOT INTEL". Production verifiers pin Intel's root, so nothing signed here is ever trusted
 * there; the orchestrator accepts {@link #rootCertificate()} only while the simulator is enabled.
 *
 * <p>Certificates and CRLs are built with Bouncy Castle (the JDK cannot create them) and signed by the JDK's
 * SHA256withECDSA; Bouncy Castle is not registered as a security provider.
 */
public final class SimulatedTdxAuthority {

    public static final String ROOT_SUBJECT =
            "CN=Stateful CVM Simulator SGX Root CA (NOT INTEL), O=Stateful CVM Orchestrator Simulator, C=ZZ";
    public static final String PLATFORM_CA_SUBJECT =
            "CN=Stateful CVM Simulator SGX PCK Platform CA (NOT INTEL), O=Stateful CVM Orchestrator Simulator, C=ZZ";
    public static final String PCK_SUBJECT =
            "CN=Stateful CVM Simulator SGX PCK Certificate (NOT INTEL), O=Stateful CVM Orchestrator Simulator, C=ZZ";
    public static final String TCB_SIGNING_SUBJECT =
            "CN=Stateful CVM Simulator SGX TCB Signing (NOT INTEL), O=Stateful CVM Orchestrator Simulator, C=ZZ";

    /** Intel's SGX extension of PCK certificates and its parts ("SGX PCK Certificate and CRL Profile"). */
    static final ASN1ObjectIdentifier SGX_EXTENSION = new ASN1ObjectIdentifier("1.2.840.113741.1.13.1");
    private static final ASN1ObjectIdentifier PPID = SGX_EXTENSION.branch("1");
    private static final ASN1ObjectIdentifier TCB = SGX_EXTENSION.branch("2");
    private static final ASN1ObjectIdentifier PCE_ID = SGX_EXTENSION.branch("3");
    private static final ASN1ObjectIdentifier FMSPC = SGX_EXTENSION.branch("4");
    private static final ASN1ObjectIdentifier SGX_TYPE = SGX_EXTENSION.branch("5");
    private static final ASN1ObjectIdentifier PLATFORM_INSTANCE_ID = SGX_EXTENSION.branch("6");
    private static final ASN1ObjectIdentifier CONFIGURATION = SGX_EXTENSION.branch("7");

    private static final Duration BACKDATE = Duration.ofDays(1);
    private static final Duration CERT_LIFE = Duration.ofDays(3650);
    private static final Duration CRL_LIFE = Duration.ofDays(30);
    /** The seeded root's validity starts here, whenever a process makes it. */
    private static final Instant SEEDED_FROM = Instant.parse("2025-01-01T00:00:00Z");

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final KeyPair rootKey;
    private final KeyPair platformCaKey;
    private final KeyPair pckKey;
    private final KeyPair tcbSigningKey;
    private final X509Certificate root;
    private final X509Certificate platformCa;
    private final X509Certificate pck;
    private final X509Certificate tcbSigning;

    public SimulatedTdxAuthority() {
        this(Clock.systemUTC());
    }

    public SimulatedTdxAuthority(Clock clock) {
        this(clock, null);
    }

    /**
     * @param rootSeed null for a new root key; else the root key derived from it (tests that run several simulators
     *                 which must share a trust anchor: only the key and the subject must match for a chain to end in it)
     */
    public SimulatedTdxAuthority(Clock clock, String rootSeed) {
        this.clock = clock;
        Instant now = clock.instant();
        Instant from = now.minus(BACKDATE);
        Instant until = now.plus(CERT_LIFE);
        // seeded, the root is the same certificate, byte for byte, in every process: key, serial, validity, signature
        SecureRandom seeded = rootSeed == null || rootSeed.isBlank() ? null : seededRandom(rootSeed);
        rootKey = seeded == null ? newKeyPair() : newKeyPair(seeded);
        platformCaKey = newKeyPair();
        pckKey = newKeyPair();
        tcbSigningKey = newKeyPair();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder rootBuilder = (seeded == null ? builder(ROOT_SUBJECT, ROOT_SUBJECT, rootKey, from, until)
                    : new JcaX509v3CertificateBuilder(new X500Name(ROOT_SUBJECT), new BigInteger(159, seeded).add(BigInteger.ONE),
                            Date.from(SEEDED_FROM), Date.from(SEEDED_FROM.plus(CERT_LIFE.multipliedBy(2))), new X500Name(ROOT_SUBJECT),
                            rootKey.getPublic()))
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(1))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(rootKey.getPublic()));
            root = seeded == null ? sign(rootBuilder, rootKey.getPrivate())
                    : new JcaX509CertificateConverter().getCertificate(rootBuilder.build(signer(rootKey.getPrivate(), seeded)));

            X509v3CertificateBuilder caBuilder = builder(PLATFORM_CA_SUBJECT, ROOT_SUBJECT, platformCaKey, from, until)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(root))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            ext.createSubjectKeyIdentifier(platformCaKey.getPublic()));
            platformCa = sign(caBuilder, rootKey.getPrivate());

            X509v3CertificateBuilder pckBuilder = leaf(PCK_SUBJECT, PLATFORM_CA_SUBJECT, pckKey, from, until,
                    platformCa, ext)
                    .addExtension(new Extension(SGX_EXTENSION, false, sgxExtension().getEncoded()));
            pck = sign(pckBuilder, platformCaKey.getPrivate());

            tcbSigning = sign(leaf(TCB_SIGNING_SUBJECT, ROOT_SUBJECT, tcbSigningKey, from, until, root, ext),
                    rootKey.getPrivate());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create the simulated attestation authority", e);
        }
    }

    /** The trust anchor of everything this authority signs. */
    public X509Certificate rootCertificate() {
        return root;
    }

    public String rootPem() {
        return pem(root);
    }

    X509Certificate platformCaCertificate() {
        return platformCa;
    }

    X509Certificate pckCertificate() {
        return pck;
    }

    X509Certificate tcbSigningCertificate() {
        return tcbSigning;
    }

    /** What a quote's certification data type 5 carries: PCK leaf, PCK platform CA, root. */
    public String pckChainPem() {
        return pem(pck) + pem(platformCa) + pem(root);
    }

    /** TCB-Info-Issuer-Chain and SGX-Enclave-Identity-Issuer-Chain: TCB signing certificate, root. */
    public String tcbSigningChainPem() {
        return pem(tcbSigning) + pem(root);
    }

    /** SGX-PCK-CRL-Issuer-Chain: PCK platform CA, root. */
    public String pckCrlIssuerChainPem() {
        return pem(platformCa) + pem(root);
    }

    /** The PCK key's raw ECDSA signature, as over the QE report. */
    byte[] signWithPckKey(byte[] data) {
        return EvidenceBytes.signRaw(pckKey.getPrivate(), data);
    }

    /** The TCB signing key's raw ECDSA signature, as over TCB info and QE identity. */
    byte[] signWithTcbSigningKey(byte[] data) {
        return EvidenceBytes.signRaw(tcbSigningKey.getPrivate(), data);
    }

    /** The PCK platform CA's CRL (DER, nothing revoked), valid from a day ago for 30 days. */
    public byte[] pckCrl() {
        return crl(platformCa, platformCaKey.getPrivate());
    }

    /** The root CA's CRL (DER, nothing revoked), valid from a day ago for 30 days. */
    public byte[] rootCaCrl() {
        return crl(root, rootKey.getPrivate());
    }

    Clock clock() {
        return clock;
    }

    static String pem(X509Certificate cert) {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(cert.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode " + cert.getSubjectX500Principal(), e);
        }
    }

    private byte[] crl(X509Certificate issuer, PrivateKey key) {
        Instant now = clock.instant();
        try {
            X509v2CRLBuilder builder = new JcaX509v2CRLBuilder(issuer, Date.from(now.minus(BACKDATE)))
                    .setNextUpdate(Date.from(now.plus(CRL_LIFE)))
                    .addExtension(Extension.cRLNumber, false, new CRLNumber(BigInteger.valueOf(now.getEpochSecond())))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(issuer));
            X509CRL crl = new JcaX509CRLConverter().getCRL(builder.build(signer(key)));
            return crl.getEncoded();
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("cannot create the CRL of " + issuer.getSubjectX500Principal(), e);
        }
    }

    private X509v3CertificateBuilder builder(String subject, String issuer, KeyPair key, Instant from,
                                             Instant until) {
        return new JcaX509v3CertificateBuilder(new X500Name(issuer), new BigInteger(159, random).add(BigInteger.ONE),
                Date.from(from), Date.from(until), new X500Name(subject), key.getPublic());
    }

    private X509v3CertificateBuilder leaf(String subject, String issuer, KeyPair key, Instant from, Instant until,
                                          X509Certificate issuerCert, JcaX509ExtensionUtils ext)
            throws CertIOException, GeneralSecurityException {
        return builder(subject, issuer, key, from, until)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation))
                .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuerCert))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(key.getPublic()));
    }

    /** Intel's SGX extension with the simulated platform's values. */
    private DERSequence sgxExtension() {
        ASN1Encodable[] tcb = new ASN1Encodable[18];
        for (int i = 0; i < 16; i++) {
            tcb[i] = pair(TCB.branch(Integer.toString(i + 1)),
                    new ASN1Integer(SimulatedPlatform.SGX_TCB_COMPONENTS[i]));
        }
        tcb[16] = pair(TCB.branch("17"), new ASN1Integer(SimulatedPlatform.PCE_SVN));
        tcb[17] = pair(TCB.branch("18"), new DEROctetString(SimulatedPlatform.cpuSvn()));
        byte[] ppid = new byte[16];
        byte[] platformInstance = new byte[16];
        random.nextBytes(ppid);
        random.nextBytes(platformInstance);
        return new DERSequence(new ASN1Encodable[] {
            pair(PPID, new DEROctetString(ppid)),
            pair(TCB, new DERSequence(tcb)),
            pair(PCE_ID, new DEROctetString(unhex(SimulatedPlatform.PCE_ID))),
            pair(FMSPC, new DEROctetString(unhex(SimulatedPlatform.FMSPC))),
            pair(SGX_TYPE, new ASN1Enumerated(1)),
            pair(PLATFORM_INSTANCE_ID, new DEROctetString(platformInstance)),
            pair(CONFIGURATION, new DERSequence(new ASN1Encodable[] {
                pair(CONFIGURATION.branch("1"), ASN1Boolean.FALSE),
                pair(CONFIGURATION.branch("2"), ASN1Boolean.TRUE),
                pair(CONFIGURATION.branch("3"), ASN1Boolean.TRUE)}))});
    }

    private static DERSequence pair(ASN1ObjectIdentifier oid, ASN1Encodable value) {
        return new DERSequence(new ASN1Encodable[] {oid, value});
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
            throws GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer(key)));
    }

    private static ContentSigner signer(PrivateKey key) {
        try {
            return new JcaContentSignerBuilder("SHA256withECDSA").build(key);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException("cannot sign with ECDSA P-256", e);
        }
    }

    /** A random whose every draw follows from the seed alone (SHA1PRNG seeded before its first use). */
    private static SecureRandom seededRandom(String seed) {
        try {
            SecureRandom derived = SecureRandom.getInstance("SHA1PRNG");
            derived.setSeed(seed.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return derived;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA1PRNG", e);
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot make P-256 keys", e);
        }
    }

    private static ContentSigner signer(PrivateKey key, SecureRandom random) {
        try {
            return new JcaContentSignerBuilder("SHA256withECDSA").setSecureRandom(random).build(key);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException("cannot sign with ECDSA P-256", e);
        }
    }

    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK cannot make P-256 keys", e);
        }
    }

    /** For tests and tools: the certificates leaf first. */
    List<X509Certificate> pckChain() {
        return List.of(pck, platformCa, root);
    }
}
