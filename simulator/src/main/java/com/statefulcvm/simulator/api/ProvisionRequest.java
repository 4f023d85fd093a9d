package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * {@code POST /cvms/provision}. {@code compose_file} stays a map so that fields we do not know survive. The official
 * SDK sends the node as {@code teepod_id}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProvisionRequest(
        String name,
        String instanceType,
        Map<String, Object> composeFile,
        Integer diskSize,
        @JsonAlias("teepod_id") Integer nodeId,
        String region,
        String image) {
}
