package com.statefulcvm.connectors.phala;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The one exception of {@link PhalaCloudClient}: a non-2xx answer, or no answer at all ({@code status() == 0}).
 * It carries the method and the path, never headers: the API key must not reach a log through an exception.
 */
public class PhalaApiException extends RuntimeException {

    /** Status of a call that got no HTTP answer (connection refused, timeout, ...). */
    public static final int NO_RESPONSE = 0;
    /** Non-standard: an on-chain KMS app's compose hash must be registered on chain first (SDK {@code updateDockerCompose}). */
    public static final int ON_CHAIN_HASH_REQUIRED = 465;
    /*
     * The refusals of phase 2 of an on-chain KMS update, as the CLI phala 1.1.18 names them after the SDK's
     * confirmCvmPatch (deploy command): the SDK itself has no names for them and reads only the status
     * (PhalaCloudError.status), so neither do these predicates read anything else.
     */
    /** 466: "Compose hash expired. Please retry the update from the beginning." */
    public static final int COMPOSE_HASH_EXPIRED = 466;
    /** 467: "Transaction verification failed on backend." */
    public static final int TRANSACTION_VERIFICATION_FAILED = 467;
    /** 468: "Compose hash not found on-chain." */
    public static final int COMPOSE_HASH_NOT_FOUND_ON_CHAIN = 468;

    private final int status;
    private final String errorCode;
    private final String apiMessage;
    private final Duration retryAfter;
    private final String method;
    private final String path;
    private final Map<String, JsonNode> detailFields;
    private final boolean requestSent;

    public PhalaApiException(int status, String errorCode, String apiMessage, Duration retryAfter,
                             String method, String path, Throwable cause) {
        this(status, errorCode, apiMessage, retryAfter, method, path, Map.of(), true, cause);
    }

    public PhalaApiException(int status, String errorCode, String apiMessage, Duration retryAfter, String method, String path,
                      Map<String, JsonNode> detailFields, boolean requestSent, Throwable cause) {
        super(format(status, apiMessage, method, path), cause);
        this.status = status;
        this.errorCode = errorCode;
        this.apiMessage = apiMessage;
        this.retryAfter = retryAfter;
        this.method = method;
        this.path = path;
        this.detailFields = detailFields == null ? Map.of() : Map.copyOf(detailFields);
        this.requestSent = requestSent;
    }

    /** No answer; {@code requestSent} false when the connection was never made, so the service cannot have acted. */
    public static PhalaApiException noResponse(String method, String path, boolean requestSent, Throwable cause) {
        return new PhalaApiException(NO_RESPONSE, null, describe(cause), null, method, path, Map.of(), requestSent, cause);
    }

    public int status() {
        return status;
    }

    /** Structured {@code error_code} such as {@code ERR-03-001}, or null. See {@link PhalaErrorCodes}. */
    public String errorCode() {
        return errorCode;
    }

    /** The human-readable part decoded from the body, without method, path and status. */
    public String apiMessage() {
        return apiMessage;
    }

    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    public String method() {
        return method;
    }

    /** Path relative to the base URL, without query string. */
    public String path() {
        return path;
    }

    /** The body's {@code details[]} as field to value (empty when it had none). */
    public Map<String, JsonNode> detailFields() {
        return detailFields;
    }

    /**
     * Whether the call may be sent again as it is, by the API's rules: 429 (rate limited, nothing done), 409 without
     * an error code (another operation is in progress on the CVM: refused, nothing done), and, for a call that changes
     * nothing ({@link #isIdempotentCall()}), 500, 502, 503, 504 and no answer at all. A call that changes something and
     * may have reached the service is never simply repeated: see {@link #isOutcomeUnknown()}.
     */
    public boolean isRetryable() {
        if (status == 429 || (status == 409 && errorCode == null)) {
            return true;
        }
        if (status == NO_RESPONSE && !requestSent) {
            return true;
        }
        return isIdempotentCall() && (status == NO_RESPONSE || isServerFailure());
    }

    /**
     * A call that changes something got a 500, 502, 503, 504 or no answer after it was sent: the service may have
     * acted on it. Read back what exists before sending it again.
     */
    public boolean isOutcomeUnknown() {
        return !isIdempotentCall() && ((status == NO_RESPONSE && requestSent) || isServerFailure());
    }

    /** GETs, and the one POST that only reads ({@code /status/batch}, SDK {@code getCvmStatusBatch}). */
    public boolean isIdempotentCall() {
        return IdempotentCalls.isIdempotent(method, path);
    }

    public boolean isNoResponse() {
        return status == NO_RESPONSE;
    }

    public boolean isNotFound() {
        return status == 404;
    }

    public boolean isConflict() {
        return status == 409;
    }

    /** 465: the new compose hash must be registered on chain before the update can go on. */
    public boolean isOnChainHashRequired() {
        return status == ON_CHAIN_HASH_REQUIRED;
    }

    /** 466: the registration the commit relies on has expired; the update starts again from phase 1. */
    public boolean isComposeHashExpired() {
        return status == COMPOSE_HASH_EXPIRED;
    }

    /** 467: the service could not verify the commit's transaction; the same transaction hash will not do. */
    public boolean isTransactionVerificationFailed() {
        return status == TRANSACTION_VERIFICATION_FAILED;
    }

    /** 468: the compose hash is not on the app's contract, whatever the transaction said. */
    public boolean isComposeHashNotFoundOnChain() {
        return status == COMPOSE_HASH_NOT_FOUND_ON_CHAIN;
    }

    /** 466, 467 or 468: the service refused phase 2 of an on-chain KMS update for what the chain shows. */
    public boolean isOnChainCommitRefused() {
        return isComposeHashExpired() || isTransactionVerificationFailed() || isComposeHashNotFoundOnChain();
    }

    /** The 465's details as the SDK reads them; empty for any other answer or one without a compose hash and app id. */
    public Optional<OnChainHashRequired> onChainHashRequired() {
        return isOnChainHashRequired() ? OnChainHashRequired.from(detailFields) : Optional.empty();
    }

    private boolean isServerFailure() {
        return status == 500 || status == 502 || status == 503 || status == 504;
    }

    private static String format(int status, String apiMessage, String method, String path) {
        String what = status == NO_RESPONSE ? "no response" : Integer.toString(status);
        String text = apiMessage == null || apiMessage.isBlank() ? "" : " " + apiMessage;
        return "Phala Cloud API " + method + " " + path + " failed: " + what + text;
    }

    private static String describe(Throwable cause) {
        if (cause == null) {
            return null;
        }
        String message = cause.getMessage();
        String type = cause.getClass().getSimpleName();
        return message == null || message.isBlank() ? "(" + type + ")" : "(" + type + ": " + message + ")";
    }
}
