package com.statefulcvm.connectors.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.regex.Pattern;

/**
 * A replica's sequence number from an HTTP endpoint of its compose ({@code GET <path>}, answering a non-negative integer
 * as the whole body, surrounding white space allowed, or a JSON object with the number and its generation): the position of the last write the replica holds, in whatever
 * unit the application counts. Used when every replica of a set is down and must be compared before one is started as
 * the seed; and, for a compose that holds its workload back, the endpoint that releases it. A 200 answer that is not such an integer is a definite failure, never read as a number.
 */
public final class SequenceEndpoint {

    private static final Pattern INTEGER = Pattern.compile("\\d{1,19}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WorkloadHttp http;

    public SequenceEndpoint(WorkloadHttp http) {
        this.http = http;
    }

    /**
     * A replica's position: its sequence number, and the generation of history it belongs to where the store has them
     * (PostgreSQL's timeline), null where it has none. Positions compare as (generation, number).
     */
    public record Position(Long generation, long number) {
    }

    /**
     * @throws WorkloadApiException when nothing answered, the status was not 200 (retryable for 502/503/504), or the body
     *                              is not an integer (not retryable)
     */
    public long read(String path) {
        return readPosition(path).number();
    }

    /**
     * The body is the number alone, or a JSON object {@code {"generation": <integer>, "sequence": <integer>}} (the
     * hold-back agent's answer for PostgreSQL: the timeline and the WAL position).
     *
     * @throws WorkloadApiException as {@link #read}; a JSON answer without a non-negative integer {@code sequence} too
     */
    public Position readPosition(String path) {
        WorkloadHttp.Answer answer = http.expect(http.call("GET", path, null, null, true), 200);
        String body = answer.body().strip();
        if (body.startsWith("{")) {
            JsonNode json;
            try {
                json = JSON.readTree(body);
            } catch (JsonProcessingException notJson) {
                throw http.failure(answer, "answered '" + abbreviate(body) + "', not a JSON object", notJson);
            }
            return new Position(json.hasNonNull("generation") ? integer(answer, json.get("generation").asText()) : null,
                    integer(answer, json.path("sequence").asText()));
        }
        return new Position(null, integer(answer, body));
    }

    private long integer(WorkloadHttp.Answer answer, String text) {
        if (!INTEGER.matcher(text).matches()) {
            throw http.failure(answer, "answered '" + abbreviate(text) + "', not a non-negative integer", null);
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException tooLarge) {
            throw http.failure(answer, "answered '" + abbreviate(text) + "', larger than a signed 64-bit integer", tooLarge);
        }
    }

    /**
     * Asks the compose to let its held-back workload start ({@code POST <path>}, any 2xx). Asking again is harmless: a
     * released workload stays released.
     *
     * @throws WorkloadApiException when nothing answered or the status was not 2xx
     */
    public void release(String path) {
        release(path, null);
    }

    /** @param order a JSON body telling the member its role (null: none); a compose that ignores it is released all the same */
    public void release(String path, Object order) {
        http.expect(http.call("POST", path, null, order, true), 200, 201, 202, 204);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
