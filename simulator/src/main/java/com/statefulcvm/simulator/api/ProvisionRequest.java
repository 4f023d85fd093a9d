package com.statefulcvm.simulator.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * {@code POST /cvms/provision}. {@code compose_file} stays a map so that fields we do not know survive. The node is read
 * from {@code teepod_id} only, the field the official SDK sends ({@code provisionCvm} turns a given {@code node_id} into
 * it); a {@code node_id} in the body is ignored, as the service is taken to ignore it (the SDK never sends one).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProvisionRequest(
        String name,
        String instanceType,
        Map<String, Object> composeFile,
        Integer diskSize,
        Integer teepodId,
        String region,
        String image) {
}
