package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import feign.Headers;
import feign.RequestLine;
import java.util.List;

/** The dstack-verifier service's HTTP API, as Feign sees it. */
interface DstackVerifierApi {

    @RequestLine("POST /verify")
    @Headers({"Content-Type: application/json", "Accept: application/json"})
    VerifyResponse verify(VerifyRequest request);

    @RequestLine("GET /health")
    @Headers("Accept: application/json")
    feign.Response health();

    record VerifyRequest(String quote, @JsonProperty("event_log") String eventLog,
                         @JsonProperty("vm_config") String vmConfig) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record VerifyResponse(@JsonProperty("is_valid") Boolean isValid, Details details, String reason) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Details(@JsonProperty("quote_verified") Boolean quoteVerified,
                   @JsonProperty("event_log_verified") Boolean eventLogVerified,
                   @JsonProperty("os_image_hash_verified") Boolean osImageHashVerified,
                   @JsonProperty("tcb_status") String tcbStatus,
                   @JsonProperty("advisory_ids") List<String> advisoryIds,
                   @JsonProperty("report_data") String reportData,
                   @JsonProperty("key_provider") KeyProvider keyProvider,
                   @JsonProperty("app_info") AppInfo appInfo) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record KeyProvider(String name, String id) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record AppInfo(@JsonProperty("app_id") String appId, @JsonProperty("compose_hash") String composeHash,
                   @JsonProperty("instance_id") String instanceId, @JsonProperty("device_id") String deviceId,
                   String mrtd, String rtmr0, String rtmr1, String rtmr2, String rtmr3,
                   @JsonProperty("os_image_hash") String osImageHash) {
    }
}
