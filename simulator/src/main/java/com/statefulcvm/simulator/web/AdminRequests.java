package com.statefulcvm.simulator.web;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** Bodies of the admin endpoints (camelCase JSON). */
public final class AdminRequests {

    private AdminRequests() {
    }

    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Health(Boolean healthy) {
    }

    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Role(Boolean leader) {
    }

    /**
     * {@code times} defaults to 1, {@code method} to any, {@code pathPattern} to any path; {@code delayMs} holds the
     * call first (without {@code status}: then the simulated cloud answers it).
     */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NewFault(String method, String pathPattern, Integer status, Integer times,
            Integer retryAfterSeconds, String errorCode, Long delayMs) {
    }

    /** Only the fields present change. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Timings(Long createMs, Long startMs, Long stopMs, Long shutdownMs, Long restartMs, Long updateMs,
            Long deleteMs) {
    }

    /** {@code enabled}: the app's KMS is on chain (its compose updates then answer 465 until committed). */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record OnChainKms(Boolean enabled) {
    }

    /**
     * An {@code addComposeHash} transaction of the simulated chain: {@code verifies} false makes it one the service
     * cannot verify (467), {@code expired} true one whose registration is too old (466); a commit with a transaction
     * the chain does not know answers 468.
     */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ComposeHashTransaction(String composeHash, String transactionHash, Boolean verifies, Boolean expired) {
    }

    /** The workspace's limits; only the fields present change. */
    @JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Quotas(Integer vmSlots, Integer vcpu, Integer memoryMb, Integer diskGb) {
    }
}
