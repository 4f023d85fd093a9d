package com.statefulcvm.simulator.cloud;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A refusal of the simulated platform: the HTTP status and the JSON body it answers with, in one of the
 * platform's error shapes ({@code {"detail": "..."}}, the 422 list, or the structured {@code error_code} shape).
 */
public class ApiException extends RuntimeException {

    public static final String IN_PROGRESS = "Another operation is in progress on this CVM";

    private final int status;
    private final Map<String, Object> body;

    public ApiException(int status, Map<String, Object> body) {
        super(status + " " + body);
        this.status = status;
        this.body = body;
    }

    public int status() {
        return status;
    }

    public Map<String, Object> body() {
        return body;
    }

    public static ApiException detail(int status, String detail) {
        return new ApiException(status, Map.of("detail", detail));
    }

    public static ApiException notFound(String what) {
        return detail(404, what + " not found");
    }

    public static ApiException inProgress() {
        return detail(409, IN_PROGRESS);
    }

    public static ApiException badRequest(String detail) {
        return detail(400, detail);
    }

    /** The structured shape: {@code {"error_code","message","details":[{field,value,message}],"suggestions","links"}}. */
    public static ApiException structured(int status, String errorCode, String message, String field, Object value,
            String fieldMessage) {
        List<Map<String, Object>> details = List.of();
        if (field != null) {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("field", field);
            detail.put("value", value);
            detail.put("message", fieldMessage);
            details = List.of(detail);
        }
        return new ApiException(status, structuredBody(errorCode, message, details));
    }

    public static Map<String, Object> structuredBody(String errorCode, String message,
            List<Map<String, Object>> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", errorCode);
        body.put("message", message);
        body.put("details", details);
        body.put("suggestions", List.of());
        body.put("links", List.of());
        return body;
    }

    /** 422 with one entry {@code {"loc": [...], "msg": "...", "type": "..."}} (FastAPI's validation shape). */
    public static ApiException unprocessable(List<Object> loc, String msg, String type) {
        Map<String, Object> issue = new LinkedHashMap<>();
        issue.put("loc", loc);
        issue.put("msg", msg);
        issue.put("type", type);
        return new ApiException(422, Map.of("detail", List.of(issue)));
    }

    /** 422 for a missing body field, e.g. {@code missing("compose_file", "docker_compose_file")}. */
    public static ApiException missing(String... path) {
        List<Object> loc = new ArrayList<>();
        loc.add("body");
        loc.addAll(List.of(path));
        return unprocessable(loc, "Field required", "missing");
    }
}
