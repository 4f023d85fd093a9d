package com.statefulcvm.connectors.attestation;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Establishes which parts of a {@link Collateral} can be trusted: the TCB info and QE identity signed by the TCB
 * signing chain, the CRLs signed by their issuers, all chains ending in a trust anchor at the verification time.
 * Only collateral whose signatures hold is handed on; its freshness is judged separately.
 */
final class CollateralVerifier {

    /** What the collateral established. Parsed content is null when it could not be trusted or read. */
    record Result(Check signatures, Check window, TcbInfo tcbInfo, QeIdentity qeIdentity, List<X509CRL> trustedCrls,
                  X509CRL pckCrl) {
    }

    private CollateralVerifier() {
    }

    static Result verify(Collateral collateral, List<X509Certificate> anchors, Instant at, CertChains chains) {
        List<String> problems = new ArrayList<>();
        List<X509CRL> trusted = new ArrayList<>();
        X509CRL rootCrl = rootCrl(collateral, anchors, problems);
        if (rootCrl != null) {
            trusted.add(rootCrl);
        }
        Map<String, X509Certificate> chainMemo = new HashMap<>();
        X509CRL pckCrl = null;
        try {
            X509CRL crl = CertChains.parseCrl(Bytes.unhex(collateral.pckCrl()), "PCK CRL");
            X509Certificate issuer = signer(chains, collateral.pckCrlIssuerChain(), "PCK CRL issuer chain",
                    anchors, at, List.copyOf(trusted), chainMemo);
            if (!crl.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
                problems.add("the PCK CRL is issued by " + crl.getIssuerX500Principal().getName()
                        + ", not by its issuer chain's " + CertChains.subject(issuer));
            } else if (verifies(crl, issuer)) {
                pckCrl = crl;
                trusted.add(crl);
            } else {
                problems.add("PCK CRL signature does not verify with " + CertChains.subject(issuer));
            }
        } catch (CertChains.ChainException | IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        TcbInfo tcbInfo = null;
        try {
            X509Certificate signer = signer(chains, collateral.tcbInfoIssuerChain(), "TCB info issuer chain",
                    anchors, at, trusted, chainMemo);
            if (signedBy(collateral.tcbInfo(), collateral.tcbInfoSignature(), signer)) {
                tcbInfo = TcbInfo.parse(collateral.tcbInfo());
            } else {
                problems.add("TCB info signature does not verify with " + CertChains.subject(signer));
            }
        } catch (CertChains.ChainException | IllegalArgumentException | GeneralSecurityException e) {
            problems.add("TCB info: " + e.getMessage());
        }
        QeIdentity qeIdentity = null;
        try {
            X509Certificate signer = signer(chains, collateral.qeIdentityIssuerChain(), "QE identity issuer chain",
                    anchors, at, trusted, chainMemo);
            if (signedBy(collateral.qeIdentity(), collateral.qeIdentitySignature(), signer)) {
                qeIdentity = QeIdentity.parse(collateral.qeIdentity());
            } else {
                problems.add("QE identity signature does not verify with " + CertChains.subject(signer));
            }
        } catch (CertChains.ChainException | IllegalArgumentException | GeneralSecurityException e) {
            problems.add("QE identity: " + e.getMessage());
        }
        Check signatures = problems.isEmpty()
                ? Check.pass(CheckNames.COLLATERAL_SIGNATURES, "TCB info, QE identity, PCK CRL and root CA CRL are "
                        + "signed by Intel chains ending in the trust anchor")
                : Check.fail(CheckNames.COLLATERAL_SIGNATURES, String.join("; ", problems));
        return new Result(signatures, window(collateral, tcbInfo, qeIdentity, pckCrl, rootCrl, at), tcbInfo,
                qeIdentity, List.copyOf(trusted), pckCrl);
    }

    private static X509CRL rootCrl(Collateral collateral, List<X509Certificate> anchors, List<String> problems) {
        try {
            X509CRL crl = CertChains.parseCrl(Bytes.unhex(collateral.rootCaCrl()), "root CA CRL");
            for (X509Certificate anchor : anchors) {
                if (anchor.getSubjectX500Principal().equals(crl.getIssuerX500Principal())) {
                    if (verifies(crl, anchor)) {
                        return crl;
                    }
                    problems.add("root CA CRL signature does not verify with the trust anchor");
                    return null;
                }
            }
            problems.add("the root CA CRL is issued by " + crl.getIssuerX500Principal().getName()
                    + ", which is no trust anchor");
        } catch (CertChains.ChainException | IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return null;
    }

    /** The leaf of a validated issuer chain; identical chains (TCB info and QE identity share one) validate once. */
    private static X509Certificate signer(CertChains chains, String pem, String what,
                                          List<X509Certificate> anchors, Instant at,
                                          List<X509CRL> crls, Map<String, X509Certificate> memo)
            throws CertChains.ChainException {
        X509Certificate known = memo.get(pem);
        if (known != null) {
            return known;
        }
        List<X509Certificate> chain = CertChains.parsePem(pem, what);
        chains.validate(chain, anchors, at, crls, what);
        memo.put(pem, chain.get(0));
        return chain.get(0);
    }

    private static boolean signedBy(String json, String signatureHex, X509Certificate signer)
            throws GeneralSecurityException {
        return EcdsaP256.verify(EcdsaP256.key(signer.getPublicKey()), json.getBytes(StandardCharsets.UTF_8),
                Bytes.unhex(signatureHex));
    }

    private static boolean verifies(X509CRL crl, X509Certificate issuer) {
        return CertChains.signedBy(crl, issuer);
    }

    private static Check window(Collateral collateral, TcbInfo tcbInfo, QeIdentity qeIdentity, X509CRL pckCrl,
                                X509CRL rootCrl, Instant at) {
        List<String> expired = new ArrayList<>();
        List<String> early = new ArrayList<>();
        TcbInfo tcb = tcbInfo != null ? tcbInfo : quietly(() -> TcbInfo.parse(collateral.tcbInfo()));
        QeIdentity qe = qeIdentity != null ? qeIdentity : quietly(() -> QeIdentity.parse(collateral.qeIdentity()));
        if (tcb == null || qe == null) {
            return Check.fail(CheckNames.COLLATERAL_WINDOW, "cannot read the issue dates of "
                    + (tcb == null ? "the TCB info" : "the QE identity"));
        }
        judge("TCB info", tcb.issueDate(), tcb.nextUpdate(), at, expired, early);
        judge("QE identity", qe.issueDate(), qe.nextUpdate(), at, expired, early);
        if (pckCrl != null) {
            judge("PCK CRL", pckCrl.getThisUpdate().toInstant(), nextUpdate(pckCrl), at, expired, early);
        }
        if (rootCrl != null) {
            judge("root CA CRL", rootCrl.getThisUpdate().toInstant(), nextUpdate(rootCrl), at, expired, early);
        }
        if (!expired.isEmpty()) {
            return Check.fail(CheckNames.COLLATERAL_WINDOW, "collateral expired: " + String.join(", ", expired)
                    + " before " + at);
        }
        if (!early.isEmpty()) {
            return Check.fail(CheckNames.COLLATERAL_WINDOW, "collateral not yet valid at " + at + ": "
                    + String.join(", ", early));
        }
        return Check.pass(CheckNames.COLLATERAL_WINDOW, at + " is within TCB info " + tcb.issueDate() + ".."
                + tcb.nextUpdate() + " and QE identity " + qe.issueDate() + ".." + qe.nextUpdate());
    }

    private static Instant nextUpdate(X509CRL crl) {
        return crl.getNextUpdate() == null ? Instant.MAX : crl.getNextUpdate().toInstant();
    }

    private static void judge(String what, Instant from, Instant until, Instant at, List<String> expired,
                              List<String> early) {
        if (at.isAfter(until)) {
            expired.add(what + " nextUpdate " + until);
        } else if (at.isBefore(from)) {
            early.add(what + " issued " + from);
        }
    }

    private static <T> T quietly(java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
