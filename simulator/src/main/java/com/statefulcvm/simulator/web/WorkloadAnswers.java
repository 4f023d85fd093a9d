package com.statefulcvm.simulator.web;

import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.simulator.cloud.Upstream;
import com.statefulcvm.simulator.cloud.WorkloadView;

/**
 * What the simulated workload APIs ({@link SimulatedPatroniController}, {@link SimulatedConsulController},
 * {@link SimulatedEtcdController}) share: who may answer, and the answer's shapes. A CVM that does not run settled
 * answers 502 {@code no upstream}, as for health; one that runs but is no member of its app's workload (it left, or
 * was removed) 503, as a stopped agent behind a running machine would.
 */
final class WorkloadAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PORT = Pattern.compile("-(\\d{1,5})[sg]?$");

    private WorkloadAnswers() {
    }

    /** The answer {@code answer} makes from the view, unless the CVM asked cannot answer (see the class comment). */
    static ResponseEntity<String> answer(Optional<WorkloadView> view, Function<WorkloadView, ResponseEntity<String>> answer) {
        if (view.isEmpty() || view.get().askedUpstream() == Upstream.NONE) {
            return text(HttpStatus.BAD_GATEWAY.value(), "no upstream");
        }
        if (view.get().self().isEmpty()) {
            return text(HttpStatus.SERVICE_UNAVAILABLE.value(), view.get().askedName() + " is not a member of the workload");
        }
        return answer.apply(view.get());
    }

    /** The generic gateway's answer: the workload's health (200 ok, 503 unhealthy, 502 no upstream). */
    static ResponseEntity<String> health(Upstream upstream) {
        return switch (upstream) {
            case HEALTHY -> rawJson(200, "{\"status\":\"ok\"}");
            case UNHEALTHY -> rawJson(503, "{\"status\":\"unhealthy\"}");
            case NONE -> text(502, "no upstream");
        };
    }

    /** The port of a route {@code <id>-<port>[s|g]}, 0 when it names none. */
    static int port(String target) {
        Matcher m = PORT.matcher(target == null ? "" : target);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** {@code body} written as JSON (a String as a JSON string). */
    static ResponseEntity<String> json(int status, Object body) {
        try {
            return rawJson(status, JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a simulated workload answer", e);
        }
    }

    private static ResponseEntity<String> rawJson(int status, String json) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(json);
    }

    static ResponseEntity<String> text(int status, String body) {
        return ResponseEntity.status(status).contentType(MediaType.TEXT_PLAIN).body(body);
    }

    /** An IP:port address, as Consul writes its raft addresses. */
    static String address(String ip, int port) {
        return (ip == null ? "127.0.0.1" : ip) + ":" + port;
    }
}
