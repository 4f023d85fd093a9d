package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code GET /cvms/{cvm_id}/attestation}. Measurements are placeholders; the runtime events carry real values.
 * {@code compose_file} is the app compose as an object (2026-05-22) or as its JSON text (older versions).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AttestationInfo(
        String name,
        boolean isOnline,
        boolean isPublic,
        String error,
        List<Object> appCertificates,
        TcbInfo tcbInfo,
        Object composeFile) {

    /** The same attestation with another {@code compose_file}. */
    public AttestationInfo withComposeFile(Object otherComposeFile) {
        return new AttestationInfo(name, isOnline, isPublic, error, appCertificates, tcbInfo, otherComposeFile);
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TcbInfo(
            String mrtd,
            String rootfsHash,
            String rtmr0,
            String rtmr1,
            String rtmr2,
            String rtmr3,
            List<EventLogEntry> eventLog,
            String appCompose) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record EventLogEntry(int imr, long eventType, String digest, String event, String eventPayload) {
    }
}
