package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.List;

/** Certificates are kept as raw JSON: the doc does not fix their shape. */
public record Attestation(
        String name,
        Boolean isOnline,
        Boolean isPublic,
        String error,
        List<JsonNode> appCertificates,
        TcbInfo tcbInfo,
        @JsonDeserialize(using = JsonTextDeserializer.class) String composeFile) {
}
