package com.statefulcvm.connectors.workload;

import java.util.regex.Pattern;

/**
 * A replica's sequence number from an HTTP endpoint of its compose ({@code GET <path>}, answering a non-negative integer
 * as the whole body, surrounding white space allowed): the position of the last write the replica holds, in whatever
 * unit the application counts. Used when every replica of a set is down and must be compared before one is started as
 * the seed; and, for a compose that holds its workload back, the endpoint that releases it. A 200 answer that is not such an integer is a definite failure, never read as a number.
 */
public final class SequenceEndpoint {

    private static final Pattern INTEGER = Pattern.compile("\\d{1,19}");

    private final WorkloadHttp http;

    public SequenceEndpoint(WorkloadHttp http) {
        this.http = http;
    }

    /**
     * @throws WorkloadApiException when nothing answered, the status was not 200 (retryable for 502/503/504), or the body
     *                              is not an integer (not retryable)
     */
    public long read(String path) {
        WorkloadHttp.Answer answer = http.expect(http.call("GET", path, null, null, true), 200);
        String body = answer.body().strip();
        if (!INTEGER.matcher(body).matches()) {
            throw http.failure(answer, "answered '" + abbreviate(body) + "', not a non-negative integer", null);
        }
        try {
            return Long.parseLong(body);
        } catch (NumberFormatException tooLarge) {
            throw http.failure(answer, "answered '" + abbreviate(body) + "', larger than a signed 64-bit integer", tooLarge);
        }
    }

    /**
     * Asks the compose to let its held-back workload start ({@code POST <path>}, any 2xx). Asking again is harmless: a
     * released workload stays released.
     *
     * @throws WorkloadApiException when nothing answered or the status was not 2xx
     */
    public void release(String path) {
        http.expect(http.call("POST", path, null, null, true), 200, 201, 202, 204);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
