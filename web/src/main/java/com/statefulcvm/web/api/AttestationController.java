package com.statefulcvm.web.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.attestation.AttestationVerifier;
import com.statefulcvm.connectors.attestation.Collateral;
import com.statefulcvm.connectors.attestation.Evidence;
import com.statefulcvm.connectors.attestation.Verdict;
import com.statefulcvm.delegates.attestation.AttestationSettings;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Verifies evidence in the dstack GetQuote shape, for operators and tools; the same verifier the procedures use. */
@RestController
@RequestMapping(path = "/api/attestations", produces = "application/json")
class AttestationController {

    private final AttestationVerifier verifier;
    private final AttestationSettings settings;
    private final Clock clock;
    private final ObjectMapper json;

    AttestationController(AttestationVerifier verifier, AttestationSettings settings, Clock clock, ObjectMapper json) {
        this.verifier = verifier;
        this.settings = settings;
        this.clock = clock;
        this.json = json;
    }

    @PostMapping(path = "/verify", consumes = "application/json")
    Map<String, Object> verify(@RequestBody JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "the body must be a JSON object {quote, event_log, vm_config?, collateral?, at?}");
        }
        byte[] quote = hex(body, "quote");
        String eventLog = jsonText(body, "event_log", true);
        String vmConfig = jsonText(body, "vm_config", false);
        Collateral collateral = collateral(body);
        Instant at = at(body);
        Verdict verdict = verifier.verify(new Evidence(quote, eventLog, vmConfig, collateral), settings.options().apply(at));
        return view(verdict);
    }

    private static byte[] hex(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": is required");
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": must be a hex string");
        }
        String text = node.asText().startsWith("0x") ? node.asText().substring(2) : node.asText();
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": must be a hex string (" + e.getMessage() + ")");
        }
    }

    /** event_log and vm_config come as JSON text in GetQuote answers; accept the parsed JSON too. */
    private String jsonText(JsonNode body, String field, boolean required) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": is required");
            }
            return null;
        }
        if (node.isTextual()) {
            try {
                json.readTree(node.asText());
            } catch (JsonProcessingException e) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, field + ": is not valid JSON text");
            }
            return node.asText();
        }
        return node.toString();
    }

    private static Collateral collateral(JsonNode body) {
        JsonNode node = body.get("collateral");
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return Collateral.fromJson(node.isTextual() ? node.asText() : node.toString());
        } catch (RuntimeException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "collateral: " + e.getMessage());
        }
    }

    private Instant at(JsonNode body) {
        JsonNode node = body.get("at");
        if (node == null || node.isNull()) {
            return clock.instant();
        }
        try {
            return Instant.parse(node.asText());
        } catch (DateTimeParseException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "at: must be an ISO-8601 instant such as 2026-11-21T10:00:00Z");
        }
    }

    private static Map<String, Object> view(Verdict verdict) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("valid", verdict.valid());
        out.put("checks", verdict.checks().stream()
                .map(c -> { Map<String, Object> m = new LinkedHashMap<>(); m.put("name", c.name()); m.put("passed", c.passed()); m.put("reason", c.reason()); return m; })
                .toList());
        var id = verdict.identity();
        Map<String, Object> identity = new LinkedHashMap<>();
        if (id != null) {
            identity.put("appId", id.appId());
            identity.put("composeHash", id.composeHash());
            identity.put("instanceId", id.instanceId());
            identity.put("osImageHash", id.osImageHash());
            identity.put("keyProvider", id.keyProviderJson());
        }
        out.put("identity", identity);
        out.put("tcbStatus", verdict.tcbStatus());
        out.put("advisoryIds", verdict.advisoryIds() == null ? List.of() : verdict.advisoryIds());
        return out;
    }
}
