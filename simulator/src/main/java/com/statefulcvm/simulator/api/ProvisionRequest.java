package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/** {@code POST /cvms/provision}. {@code compose_file} stays a map so that fields we do not know survive. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProvisionRequest(
        String name,
        String instanceType,
        Map<String, Object> composeFile,
        Integer diskSize,
        Integer nodeId,
        String region,
        String image) {
}
