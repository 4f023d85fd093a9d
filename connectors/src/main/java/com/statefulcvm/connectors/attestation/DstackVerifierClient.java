package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import feign.Feign;
import feign.FeignException;
import feign.Request;
import feign.RetryableException;
import feign.Retryer;
import feign.codec.DecodeException;
import feign.codec.EncodeException;
import feign.http2client.Http2Client;
import feign.jackson.JacksonDecoder;
import feign.jackson.JacksonEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Asks a dstack-verifier service ({@code POST /verify}) and turns its answer into a {@link Verdict}. Every remote
 * failure (unreachable, timeout, HTTP error, unreadable answer) is a verdict with {@code valid == false} and a failing
 * {@link CheckNames#REMOTE_VERIFIER} check; nothing is retried, so a caller's deadline stays its own. The service
 * judges with its own clock, roots and collateral: {@link VerifyOptions} and {@link Evidence#collateral()} are not
 * sent, and its answer is trusted as far as the service is.
 */
public final class DstackVerifierClient implements AttestationVerifier {

    private static final int BODY_EXCERPT = 200;

    private final DstackVerifierApi api;
    private final String baseUrl;

    private DstackVerifierClient(DstackVerifierApi api, String baseUrl) {
        this.api = api;
        this.baseUrl = baseUrl;
    }

    /**
     * @param baseUrl the service root, e.g. {@code http://dstack-verifier:8080}
     * @param timeout bound for connecting and for reading the answer (it takes about a second warm)
     */
    public static DstackVerifierClient create(String baseUrl, Duration timeout) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        DstackVerifierApi api = Feign.builder()
                .client(new Http2Client(http))
                .options(new Request.Options(timeout, timeout, false))
                .encoder(new JacksonEncoder(AttestationJson.MAPPER))
                .decoder(new JacksonDecoder(AttestationJson.MAPPER))
                .retryer(Retryer.NEVER_RETRY)
                .target(DstackVerifierApi.class, base);
        return new DstackVerifierClient(api, base);
    }

    /** True when {@code GET /health} answers 2xx in time; never throws. */
    public boolean healthy() {
        try (feign.Response response = api.health()) {
            return response.status() / 100 == 2;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public Verdict verify(Evidence evidence, VerifyOptions options) {
        Objects.requireNonNull(evidence, "evidence");
        DstackVerifierApi.VerifyResponse answer;
        try {
            answer = api.verify(new DstackVerifierApi.VerifyRequest(Bytes.hex(evidence.quote()),
                    evidence.eventLogJson(), evidence.vmConfigJson()));
        } catch (RetryableException e) {
            return remoteFailure("dstack-verifier at " + baseUrl + " unreachable: " + rootMessage(e));
        } catch (DecodeException | EncodeException e) {
            return remoteFailure("dstack-verifier answer unreadable: " + rootMessage(e));
        } catch (FeignException e) {
            if (e.status() / 100 == 2) {
                // Feign reports a body it could not decode as an exception carrying the success status.
                return remoteFailure("dstack-verifier answer unreadable: " + rootMessage(e));
            }
            if (e.status() > 0) {
                return remoteFailure("dstack-verifier answered HTTP " + e.status() + excerpt(e));
            }
            return remoteFailure("dstack-verifier at " + baseUrl + " failed: " + rootMessage(e));
        } catch (RuntimeException e) {
            return remoteFailure("dstack-verifier call failed: " + rootMessage(e));
        }
        if (answer == null || answer.isValid() == null || answer.details() == null) {
            return remoteFailure("dstack-verifier answer lacks is_valid or details");
        }
        return toVerdict(answer);
    }

    private static Verdict toVerdict(DstackVerifierApi.VerifyResponse answer) {
        DstackVerifierApi.Details d = answer.details();
        String why = answer.reason() == null || answer.reason().isBlank() ? "" : ": " + answer.reason();
        List<Check> checks = new ArrayList<>();
        checks.add(flag(CheckNames.QUOTE_SIGNATURE, d.quoteVerified(), "dstack-verifier verified the quote",
                "dstack-verifier did not verify the quote" + why));
        checks.add(flag(CheckNames.EVENT_LOG_RTMR3, d.eventLogVerified(),
                "dstack-verifier replayed the event log against the quote",
                "dstack-verifier did not verify the event log" + why));
        checks.add(flag(CheckNames.OS_IMAGE_HASH, d.osImageHashVerified(), "dstack-verifier verified the OS image",
                "dstack-verifier did not verify the OS image hash" + why));
        String tcb = d.tcbStatus();
        checks.add(tcb == null ? Check.fail(CheckNames.TCB_STATUS, "dstack-verifier reported no TCB status")
                : "Revoked".equals(tcb) ? Check.fail(CheckNames.TCB_STATUS, "TCB is Revoked")
                : Check.pass(CheckNames.TCB_STATUS, tcb));
        DstackVerifierApi.AppInfo app = d.appInfo();
        boolean hasIdentity = app != null && app.appId() != null && app.composeHash() != null;
        checks.add(hasIdentity ? Check.pass(CheckNames.EVENT_LOG_IDENTITY, "app-id " + hex(app.appId())
                + ", compose-hash " + hex(app.composeHash()))
                : Check.fail(CheckNames.EVENT_LOG_IDENTITY, "dstack-verifier reported no app id and compose hash"));
        boolean valid = answer.isValid() && Boolean.TRUE.equals(d.quoteVerified())
                && Boolean.TRUE.equals(d.eventLogVerified());
        DstackVerifierApi.KeyProvider kp = d.keyProvider();
        String kpJson = null;
        if (kp != null) {
            ObjectNode node = AttestationJson.MAPPER.createObjectNode();
            node.put("name", kp.name());
            node.put("id", kp.id());
            kpJson = node.toString();
        }
        Identity identity = app == null
                ? new Identity(null, null, null, null, kp == null ? null : kp.name(), kp == null ? null : kp.id(),
                        kpJson, null, null, null, null, null, null)
                : new Identity(hex(app.appId()), hex(app.composeHash()), hex(app.instanceId()),
                        hex(app.osImageHash()), kp == null ? null : kp.name(), kp == null ? null : kp.id(), kpJson,
                        null, hex(app.mrtd()), hex(app.rtmr0()), hex(app.rtmr1()), hex(app.rtmr2()),
                        hex(app.rtmr3()));
        return new Verdict(valid, checks, identity, tcb, d.advisoryIds() == null ? List.of() : d.advisoryIds(),
                hex(d.reportData()));
    }

    private static Check flag(String name, Boolean value, String yes, String no) {
        return Boolean.TRUE.equals(value) ? Check.pass(name, yes) : Check.fail(name, no);
    }

    private static String hex(String value) {
        if (value == null) {
            return null;
        }
        String s = value.strip().toLowerCase(Locale.ROOT);
        return s.startsWith("0x") ? s.substring(2) : s;
    }

    private static Verdict remoteFailure(String reason) {
        return Verdict.failure(Check.fail(CheckNames.REMOTE_VERIFIER, reason));
    }

    private static String excerpt(FeignException e) {
        byte[] body = e.content();
        if (body == null || body.length == 0) {
            return "";
        }
        String text = new String(body, StandardCharsets.UTF_8).replaceAll("[\\p{Cntrl}]", " ").strip();
        return ": " + (text.length() > BODY_EXCERPT ? text.substring(0, BODY_EXCERPT) + "..." : text);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
    }
}
