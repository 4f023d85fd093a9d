package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/** {@code GET /cvms/{cvm_id}/attestation}. Measurements are placeholders; the runtime events carry real values. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AttestationInfo(
        String name,
        boolean isOnline,
        boolean isPublic,
        String error,
        List<Object> appCertificates,
        TcbInfo tcbInfo,
        Map<String, Object> composeFile) {

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
