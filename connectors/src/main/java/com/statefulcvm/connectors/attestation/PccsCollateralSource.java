package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Fetches TDX collateral from an Intel PCCS (or anything speaking its v4 API): {@code /tdx/certification/v4/tcb},
 * {@code /tdx/certification/v4/qe/identity}, {@code /sgx/certification/v4/pckcrl} and {@code /sgx/certification/v4/
 * rootcacrl}, issuer chains from the response headers. The answers are not trusted here; the verifier checks them.
 */
public final class PccsCollateralSource implements CollateralSource {

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    private PccsCollateralSource(String baseUrl, Duration timeout) {
        this.baseUrl = normalise(baseUrl);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    /**
     * @param baseUrl the PCCS root, e.g. {@code https://pccs.example:8081}; a trailing {@code /sgx/certification/v4}
     *                or {@code /tdx/certification/v4} is tolerated
     * @param timeout bound for connecting and for each request
     */
    public static PccsCollateralSource create(String baseUrl, Duration timeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        return new PccsCollateralSource(baseUrl, timeout);
    }

    private static String normalise(String url) {
        String s = url.strip();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        for (String suffix : new String[] {"/sgx/certification/v4", "/tdx/certification/v4"}) {
            if (s.endsWith(suffix)) {
                s = s.substring(0, s.length() - suffix.length());
            }
        }
        URI.create(s);
        return s;
    }

    @Override
    public Optional<Collateral> fetch(Quote quote) {
        PckExtensions pck;
        try {
            pck = PckExtensions.of(CertChains.parsePem(quote.pckChainPem(), "PCK certificate chain").get(0));
        } catch (CertChains.ChainException | IllegalArgumentException e) {
            throw new CollateralFetchException("cannot tell which collateral the quote needs: " + e.getMessage());
        }
        if (pck.ca() == null) {
            throw new CollateralFetchException("the PCK certificate is issued by neither the Platform nor the "
                    + "Processor CA");
        }
        return fetch(HexFormat.of().withUpperCase().formatHex(pck.fmspc()), pck.ca());
    }

    /**
     * @param fmspc the platform's FMSPC, hex
     * @param ca    {@code platform} or {@code processor}: which Intel CA issued the PCK certificate
     * @return empty when the PCCS has no TCB info for this FMSPC (HTTP 404)
     */
    public Optional<Collateral> fetch(String fmspc, String ca) {
        String tcbUrl = baseUrl + "/tdx/certification/v4/tcb?fmspc=" + fmspc.toUpperCase(Locale.ROOT);
        HttpResponse<byte[]> tcb = get(tcbUrl, true);
        if (tcb == null) {
            return Optional.empty();
        }
        HttpResponse<byte[]> qe = get(baseUrl + "/tdx/certification/v4/qe/identity?update=standard", false);
        String pckCrlUrl = baseUrl + "/sgx/certification/v4/pckcrl?ca=" + ca + "&encoding=der";
        HttpResponse<byte[]> pckCrl = get(pckCrlUrl, false);
        String rootCrlUrl = baseUrl + "/sgx/certification/v4/rootcacrl";
        HttpResponse<byte[]> rootCrl = get(rootCrlUrl, false);

        String tcbBody = new String(tcb.body(), StandardCharsets.UTF_8);
        String qeBody = new String(qe.body(), StandardCharsets.UTF_8);
        return Optional.of(new Collateral(
                member(tcbBody, "tcbInfo", tcbUrl),
                signature(tcbBody, tcbUrl),
                header(tcb, tcbUrl, "TCB-Info-Issuer-Chain", "SGX-TCB-Info-Issuer-Chain"),
                member(qeBody, "enclaveIdentity", qe.uri().toString()),
                signature(qeBody, qe.uri().toString()),
                header(qe, qe.uri().toString(), "SGX-Enclave-Identity-Issuer-Chain"),
                Bytes.hex(crl(pckCrl.body(), pckCrlUrl)),
                Bytes.hex(crl(rootCrl.body(), rootCrlUrl)),
                header(pckCrl, pckCrlUrl, "SGX-PCK-CRL-Issuer-Chain")));
    }

    /** Null for a 404 when {@code absentOk}; throws for any other non-200 answer or transport failure. */
    private HttpResponse<byte[]> get(String url, boolean absentOk) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).GET().timeout(timeout).build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new CollateralFetchException("PCCS GET " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CollateralFetchException("PCCS GET " + url + " interrupted", e);
        }
        if (response.statusCode() == 404 && absentOk) {
            return null;
        }
        if (response.statusCode() != 200) {
            throw new CollateralFetchException("PCCS GET " + url + " answered HTTP " + response.statusCode());
        }
        return response;
    }

    private static String member(String body, String name, String url) {
        try {
            return RawJson.member(body, name);
        } catch (IllegalArgumentException e) {
            throw new CollateralFetchException("PCCS " + url + ": " + e.getMessage());
        }
    }

    private static String signature(String body, String url) {
        JsonNode root;
        try {
            root = AttestationJson.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new CollateralFetchException("PCCS " + url + ": not valid JSON");
        }
        JsonNode signature = root.path("signature");
        if (!signature.isTextual()) {
            throw new CollateralFetchException("PCCS " + url + ": no signature");
        }
        try {
            Bytes.unhex(signature.asText());
        } catch (IllegalArgumentException e) {
            throw new CollateralFetchException("PCCS " + url + ": signature is not hex");
        }
        return signature.asText();
    }

    private static String header(HttpResponse<?> response, String url, String... names) {
        for (String name : names) {
            Optional<String> value = response.headers().firstValue(name);
            if (value.isPresent()) {
                // Intel percent-encodes the PEM; a bare '+' is base64, not a space.
                return URLDecoder.decode(value.get().replace("+", "%2B"), StandardCharsets.UTF_8);
            }
        }
        throw new CollateralFetchException("PCCS " + url + ": no " + names[0] + " header");
    }

    /** DER as PCS sends it, hex text as PCCS sends the root CA CRL, or PEM: all become DER. */
    static byte[] crl(byte[] body, String url) {
        if (body.length > 0 && body[0] == 0x30) {
            return body;
        }
        String text = new String(body, StandardCharsets.US_ASCII).strip();
        try {
            if (text.startsWith("-----BEGIN")) {
                String base64 = text.replaceAll("-----[A-Z0-9 ]+-----", "").replaceAll("\\s", "");
                return Base64.getDecoder().decode(base64);
            }
            return Bytes.unhex(text);
        } catch (IllegalArgumentException e) {
            throw new CollateralFetchException("PCCS " + url + ": the CRL is neither DER, PEM nor hex");
        }
    }
}
