package com.statefulcvm.connectors.attestation;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Verifies TDX evidence in-process, trusting nobody but the pinned root: quote and QE report signatures, the QE's
 * binding of the attestation key, the PCK chain, the collateral (signatures, window, TCB status, QE identity), the TD
 * attributes, and the dstack RTMR3 event log with the identity it carries. Stateless and thread-safe.
 */
public final class LocalTdxVerifier implements AttestationVerifier {

    @Override
    public Verdict verify(Evidence evidence, VerifyOptions options) {
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(options, "options");
        return new Run(evidence, options).verdict();
    }

    /** One verification; holds what earlier checks established for later ones. */
    private static final class Run {

        private final Evidence evidence;
        private final VerifyOptions options;
        private final Map<String, Check> checks = new LinkedHashMap<>();
        private final CertChains chains = new CertChains();
        private Quote quote;
        private List<X509Certificate> pckChain;
        private PckExtensions pck;
        private Collateral collateral;
        private String collateralMissing;
        private String tcbStatus;
        private List<String> advisoryIds = List.of();
        private Identity eventLogIdentity;

        Run(Evidence evidence, VerifyOptions options) {
            this.evidence = evidence;
            this.options = options;
        }

        Verdict verdict() {
            try {
                return checkAll();
            } catch (RuntimeException e) {
                // A defect here must still end in a rejection the operator can read, never in a pass or a crash.
                String reason = "not evaluated: the verifier failed (" + e.getClass().getSimpleName() + ": "
                        + e.getMessage() + ")";
                List<Check> all = new ArrayList<>();
                for (String name : CheckNames.LOCAL) {
                    all.add(checks.getOrDefault(name, Check.fail(name, reason)));
                }
                return new Verdict(false, all, Identity.NONE, null, List.of(), null);
            }
        }

        private Verdict checkAll() {
            try {
                quote = QuoteParser.parse(evidence.quote());
                put(Check.pass(CheckNames.QUOTE_FORMAT, "TDX quote v" + quote.version + ", "
                        + (quote.tdReport.isV15() ? "TD report 1.5" : "TD report 1.0")));
            } catch (QuoteFormatException e) {
                put(Check.fail(CheckNames.QUOTE_FORMAT, e.getMessage()));
                for (String name : CheckNames.LOCAL) {
                    checks.putIfAbsent(name, Check.fail(name, "the quote could not be read"));
                }
                return new Verdict(false, List.copyOf(checks.values()), Identity.NONE, null, List.of(), null);
            }
            quoteSignature();
            readPckChain();
            qeReport();
            Optional<CollateralVerifier.Result> trusted = collateral();
            pckChainCheck(trusted.map(CollateralVerifier.Result::trustedCrls).orElse(List.of()),
                    trusted.map(CollateralVerifier.Result::pckCrl).orElse(null));
            tcbAndQe(trusted.orElse(null));
            put(TdAttributes.check(quote.tdReport.tdAttributes));
            eventLog();
            return finish();
        }

        private void quoteSignature() {
            try {
                EcdsaP256.Key key = EcdsaP256.key(quote.attestationKey);
                boolean ok = EcdsaP256.verify(key, quote.raw, quote.signedLength, quote.signature);
                put(ok ? Check.pass(CheckNames.QUOTE_SIGNATURE, "the attestation key signed the header and TD report")
                        : Check.fail(CheckNames.QUOTE_SIGNATURE, "the quote signature does not verify with the "
                                + "attestation key: header or TD report body altered"));
            } catch (GeneralSecurityException e) {
                put(Check.fail(CheckNames.QUOTE_SIGNATURE, "unusable attestation key or signature: "
                        + e.getMessage()));
            }
        }

        private void readPckChain() {
            try {
                pckChain = CertChains.parsePem(quote.pckChainPem, "PCK certificate chain");
                pck = PckExtensions.of(pckChain.get(0));
            } catch (CertChains.ChainException | IllegalArgumentException e) {
                put(Check.fail(CheckNames.PCK_CHAIN, e.getMessage()));
            }
        }

        private void qeReport() {
            if (pckChain == null) {
                put(Check.fail(CheckNames.QE_REPORT_SIGNATURE, "no PCK certificate to check it with"));
            } else {
                try {
                    boolean ok = EcdsaP256.verify(EcdsaP256.key(pckChain.get(0).getPublicKey()), quote.qeReportBytes,
                            quote.qeReportSignature);
                    put(ok ? Check.pass(CheckNames.QE_REPORT_SIGNATURE,
                                    "the PCK certificate's key signed the QE report")
                            : Check.fail(CheckNames.QE_REPORT_SIGNATURE,
                                    "the QE report signature does not verify with the PCK certificate's key"));
                } catch (GeneralSecurityException e) {
                    put(Check.fail(CheckNames.QE_REPORT_SIGNATURE, "unusable PCK key or signature: " + e.getMessage()));
                }
            }
            MessageDigest sha = sha256();
            sha.update(quote.attestationKey);
            sha.update(quote.qeAuthData);
            byte[] expected = sha.digest();
            byte[] actual = java.util.Arrays.copyOf(quote.qeReport.reportData, 32);
            // Intel's QVL compares the first 32 bytes only; the rest is zero padding that nobody checks.
            put(MessageDigest.isEqual(expected, actual)
                    ? Check.pass(CheckNames.QE_REPORT_BINDING,
                            "QE REPORTDATA = SHA-256(attestation key || QE auth data)")
                    : Check.fail(CheckNames.QE_REPORT_BINDING, "QE REPORTDATA " + Bytes.hex(actual)
                            + " does not bind the attestation key (expected " + Bytes.hex(expected) + ")"));
        }

        private Optional<CollateralVerifier.Result> collateral() {
            collateral = evidence.collateral();
            if (collateral == null && options.collateralSource() != null) {
                try {
                    collateral = options.collateralSource().fetch(quote).orElse(null);
                    if (collateral == null) {
                        collateralMissing = "no collateral: the collateral source has none for this platform";
                    }
                } catch (RuntimeException e) {
                    collateralMissing = "no collateral: fetching it failed: " + e.getMessage();
                }
            } else if (collateral == null) {
                collateralMissing = "no collateral";
            }
            if (collateral == null) {
                for (String name : CheckNames.COLLATERAL) {
                    put(Check.fail(name, collateralMissing));
                }
                return Optional.empty();
            }
            CollateralVerifier.Result result = CollateralVerifier.verify(collateral, options.trustAnchors(),
                    options.at(), chains);
            put(result.signatures());
            put(result.window());
            return Optional.of(result);
        }

        private void pckChainCheck(List<X509CRL> crls, X509CRL pckCrl) {
            if (pckChain == null) {
                return;
            }
            try {
                if (pckCrl != null && !pckCrl.getIssuerX500Principal()
                        .equals(pckChain.get(0).getIssuerX500Principal())) {
                    put(Check.fail(CheckNames.PCK_CHAIN, "the PCK CRL is issued by "
                            + pckCrl.getIssuerX500Principal().getName() + ", not by the PCK certificate's issuer "
                            + pckChain.get(0).getIssuerX500Principal().getName()));
                    return;
                }
                X509Certificate anchor = chains.validate(pckChain, options.trustAnchors(), options.at(), crls,
                        "PCK certificate chain");
                String revocation = crls.isEmpty() ? "no trusted CRLs, revocation not checked"
                        : "not revoked by " + crls.size() + " CRL" + (crls.size() == 1 ? "" : "s");
                put(Check.pass(CheckNames.PCK_CHAIN, "PCK certificate chains to " + CertChains.subject(anchor)
                        + " at " + options.at() + "; " + revocation));
            } catch (CertChains.ChainException e) {
                put(Check.fail(CheckNames.PCK_CHAIN, e.getMessage()));
            }
        }

        private void tcbAndQe(CollateralVerifier.Result trusted) {
            if (trusted == null) {
                return;
            }
            TcbInfo.IsvLevel qeLevel = null;
            if (trusted.qeIdentity() == null) {
                put(Check.fail(CheckNames.QE_IDENTITY, "no trusted QE identity (see collateral.signatures)"));
            } else {
                QeIdentityMatcher.Result qe = QeIdentityMatcher.match(quote.qeReport, trusted.qeIdentity());
                put(qe.check());
                qeLevel = qe.level();
            }
            if (trusted.tcbInfo() == null) {
                put(Check.fail(CheckNames.TCB_STATUS, "no trusted TCB info (see collateral.signatures)"));
            } else if (pck == null) {
                put(Check.fail(CheckNames.TCB_STATUS, "the PCK certificate's SGX extension could not be read"));
            } else {
                TcbEvaluator.Result tcb = TcbEvaluator.evaluate(quote, pck, trusted.tcbInfo(), qeLevel);
                put(tcb.check());
                tcbStatus = tcb.status();
                advisoryIds = tcb.advisoryIds();
            }
        }

        private void eventLog() {
            String log = evidence.eventLogJson();
            if (log == null || log.isBlank()) {
                put(Check.fail(CheckNames.EVENT_LOG_RTMR3, "no event log"));
                put(Check.fail(CheckNames.EVENT_LOG_IDENTITY, "no event log"));
                return;
            }
            EventLogReplay.Result replay = EventLogReplay.replay(log, quote.tdReport.rtmr3);
            put(replay.check());
            if (!replay.matched()) {
                put(Check.fail(CheckNames.EVENT_LOG_IDENTITY, "the event log is not bound to the quote ("
                        + CheckNames.EVENT_LOG_RTMR3 + " failed); its claims are ignored"));
                return;
            }
            IdentityExtractor.Result identity = IdentityExtractor.extract(replay.events());
            put(identity.check());
            eventLogIdentity = identity.identity();
        }

        private Verdict finish() {
            boolean collateralExcused = collateral == null && !options.requireCollateral();
            String log = evidence.eventLogJson();
            boolean eventLogExcused = (log == null || log.isBlank()) && !options.requireEventLog();
            List<Check> ordered = new ArrayList<>();
            boolean valid = true;
            for (String name : CheckNames.LOCAL) {
                Check check = checks.get(name);
                if (check == null) {
                    check = Check.fail(name, "not evaluated");
                }
                ordered.add(check);
                boolean excused = (collateralExcused && CheckNames.COLLATERAL.contains(name))
                        || (eventLogExcused && CheckNames.EVENT_LOG.contains(name));
                valid &= check.passed() || excused;
            }
            TdReport td = quote.tdReport;
            Identity e = eventLogIdentity != null ? eventLogIdentity : Identity.NONE;
            Identity identity = new Identity(e.appId(), e.composeHash(), e.instanceId(), e.osImageHash(),
                    e.keyProviderName(), e.keyProviderId(), e.keyProviderJson(), e.storageFs(), Bytes.hex(td.mrTd),
                    Bytes.hex(td.rtmr0), Bytes.hex(td.rtmr1), Bytes.hex(td.rtmr2), Bytes.hex(td.rtmr3));
            return new Verdict(valid, ordered, identity, tcbStatus, advisoryIds, Bytes.hex(td.reportData));
        }

        private void put(Check check) {
            // The first finding for a name stands: a later, more generic failure must not hide it.
            checks.putIfAbsent(check.name(), check);
        }

        private static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("the JDK lacks SHA-256", e);
            }
        }
    }
}
