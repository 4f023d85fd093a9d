package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one JSON configuration for the Phala Cloud wire format. The client, the simulator and the tests must agree on
 * it, so it lives next to the records instead of inside the Feign wiring.
 */
public final class PhalaJson {

    private static final ObjectMapper SHARED = newObjectMapper();

    private PhalaJson() {
    }

    /** A fresh mapper: snake_case names, unknown properties ignored (the API grows), nulls omitted on write. */
    public static ObjectMapper newObjectMapper() {
        return JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.USE_DEFAULTS))
                .addModule(new JavaTimeModule())
                .build();
    }

    /** Shared instance; do not reconfigure it (mappers are thread-safe only while nobody changes them). */
    public static ObjectMapper objectMapper() {
        return SHARED;
    }
}
