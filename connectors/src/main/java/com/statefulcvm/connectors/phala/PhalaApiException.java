package com.statefulcvm.connectors.phala;

import java.time.Duration;
import java.util.Optional;

/**
 * The one exception of {@link PhalaCloudClient}: a non-2xx answer, or no answer at all ({@code status() == 0}).
 * It carries the method and the path, never headers: the API key must not reach a log through an exception.
 */
public class PhalaApiException extends RuntimeException {

    /** Status of a call that got no HTTP answer (connection refused, timeout, ...). */
    public static final int NO_RESPONSE = 0;

    private final int status;
    private final String errorCode;
    private final String apiMessage;
    private final Duration retryAfter;
    private final String method;
    private final String path;

    public PhalaApiException(int status, String errorCode, String apiMessage, Duration retryAfter,
                             String method, String path, Throwable cause) {
        super(format(status, apiMessage, method, path), cause);
        this.status = status;
        this.errorCode = errorCode;
        this.apiMessage = apiMessage;
        this.retryAfter = retryAfter;
        this.method = method;
        this.path = path;
    }

    public static PhalaApiException noResponse(String method, String path, Throwable cause) {
        return new PhalaApiException(NO_RESPONSE, null, describe(cause), null, method, path, cause);
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

    /**
     * Whether the failure is transient by the API's rules: 409 without error code (another operation in progress),
     * 429, 503, and a GET that got no answer. A thrown exception that says true means the client's own attempts ran
     * out; the caller may try again later.
     */
    public boolean isRetryable() {
        return switch (status) {
            case 409 -> errorCode == null;
            case 429, 503 -> true;
            case NO_RESPONSE -> "GET".equalsIgnoreCase(method);
            default -> false;
        };
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
        return status == 465;
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
