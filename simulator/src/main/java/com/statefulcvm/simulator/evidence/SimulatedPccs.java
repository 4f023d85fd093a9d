package com.statefulcvm.simulator.evidence;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A PCCS for the simulated platform, with the paths, parameters and headers of Intel's PCCS / PCS API v4, under
 * {@value #PATH}:
 * <ul>
 *   <li>{@code GET /tdx/certification/v4/tcb?fmspc=} → {@code {"tcbInfo": {...}, "signature": "<hex>"}},
 *       header {@code TCB-Info-Issuer-Chain};</li>
 *   <li>{@code GET /tdx/certification/v4/qe/identity} → {@code {"enclaveIdentity": {...}, "signature": "<hex>"}},
 *       header {@code SGX-Enclave-Identity-Issuer-Chain};</li>
 *   <li>{@code GET /sgx/certification/v4/pckcrl?ca=platform[&encoding=pem|der]} → the PCK platform CA's CRL (PEM by
 *       default, as PCS), header {@code SGX-PCK-CRL-Issuer-Chain};</li>
 *   <li>{@code GET /sgx/certification/v4/rootcacrl[?encoding=hex|der|pem]} → the root CA's CRL (hex of the DER by
 *       default, as PCCS).</li>
 * </ul>
 * Issuer chains are URL-encoded PEM. Collateral is made at request time: issued a day ago, valid 30 more days.
 */
@RestController
@RequestMapping(SimulatedPccs.PATH)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class SimulatedPccs {

    public static final String PATH = "/simulator/pccs";
    public static final String TCB_INFO_ISSUER_CHAIN = "TCB-Info-Issuer-Chain";
    public static final String ENCLAVE_IDENTITY_ISSUER_CHAIN = "SGX-Enclave-Identity-Issuer-Chain";
    public static final String PCK_CRL_ISSUER_CHAIN = "SGX-PCK-CRL-Issuer-Chain";

    private static final MediaType PEM = MediaType.parseMediaType("application/x-pem-file");
    private static final MediaType DER_CRL = MediaType.parseMediaType("application/pkix-crl");

    private final SimulatedCollateral collateral;
    private final Clock clock;

    public SimulatedPccs(SimulatedCollateral collateral) {
        this.collateral = collateral;
        this.clock = collateral.authority().clock();
    }

    @GetMapping("/tdx/certification/v4/tcb")
    ResponseEntity<String> tcbInfo(@RequestParam(required = false) String fmspc) {
        if (fmspc == null || !fmspc.matches("^[0-9a-fA-F]{12}$")) {
            return error(HttpStatus.BAD_REQUEST, "fmspc must be 6 bytes of hex");
        }
        if (!fmspc.equalsIgnoreCase(collateral.fmspc())) {
            return error(HttpStatus.NOT_FOUND, "no TCB info for FMSPC " + fmspc.toUpperCase(Locale.ROOT)
                    + "; the simulated platform's is " + collateral.fmspc());
        }
        return ResponseEntity.ok()
                .header(TCB_INFO_ISSUER_CHAIN, urlEncoded(collateral.authority().tcbSigningChainPem()))
                .contentType(MediaType.APPLICATION_JSON)
                .body(SimulatedCollateral.tcbInfoBody(collateral.tcbInfo(clock.instant())));
    }

    @GetMapping("/tdx/certification/v4/qe/identity")
    ResponseEntity<String> qeIdentity() {
        return ResponseEntity.ok()
                .header(ENCLAVE_IDENTITY_ISSUER_CHAIN, urlEncoded(collateral.authority().tcbSigningChainPem()))
                .contentType(MediaType.APPLICATION_JSON)
                .body(SimulatedCollateral.qeIdentityBody(collateral.qeIdentity(clock.instant())));
    }

    @GetMapping("/sgx/certification/v4/pckcrl")
    ResponseEntity<?> pckCrl(@RequestParam(required = false) String ca,
                             @RequestParam(required = false) String encoding) {
        if (ca == null || !(ca.equalsIgnoreCase("platform") || ca.equalsIgnoreCase("processor"))) {
            return error(HttpStatus.BAD_REQUEST, "ca must be platform or processor");
        }
        if (ca.equalsIgnoreCase("processor")) {
            return error(HttpStatus.NOT_FOUND, "the simulated platform's PCK certificate comes from the platform CA");
        }
        return crl(collateral.authority().pckCrl(), encoding, "pem", PCK_CRL_ISSUER_CHAIN,
                collateral.authority().pckCrlIssuerChainPem());
    }

    @GetMapping("/sgx/certification/v4/rootcacrl")
    ResponseEntity<?> rootCaCrl(@RequestParam(required = false) String encoding) {
        return crl(collateral.authority().rootCaCrl(), encoding, "hex", null, null);
    }

    /** A CRL in the encoding asked for (or {@code fallback}), with its issuer chain header when there is one. */
    private static ResponseEntity<?> crl(byte[] der, String encoding, String fallback, String chainHeader,
                                         String chainPem) {
        String wanted = encoding == null || encoding.isBlank() ? fallback : encoding.toLowerCase(Locale.ROOT);
        ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
        if (chainHeader != null) {
            ok.header(chainHeader, urlEncoded(chainPem));
        }
        return switch (wanted) {
            case "der" -> ok.contentType(DER_CRL).body(der);
            case "pem" -> ok.contentType(PEM).body(pemCrl(der));
            case "hex" -> ok.contentType(MediaType.TEXT_PLAIN).body(EvidenceBytes.hex(der));
            default -> error(HttpStatus.BAD_REQUEST, "encoding must be pem, der or hex");
        };
    }

    static String urlEncoded(String pem) {
        return URLEncoder.encode(pem, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String pemCrl(byte[] der) {
        return "-----BEGIN X509 CRL-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END X509 CRL-----\n";
    }

    private static ResponseEntity<String> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).contentType(MediaType.TEXT_PLAIN).body(message);
    }
}
