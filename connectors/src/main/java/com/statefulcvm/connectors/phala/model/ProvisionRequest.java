package com.statefulcvm.connectors.phala.model;

import java.util.List;
import java.util.Objects;

/**
 * {@code POST /cvms/provision} exactly as the SDK's {@code provisionCvm} sends it: the node as {@code teepod_id} (a
 * number; the SDK turns {@code node_id} into it), {@code instance_type} always present (the SDK fills in
 * {@code tdx.small}), and a {@code compose_file} holding only the fields the SDK's schema keeps, its {@code name}
 * always present ({@code ""} by default).
 */
public record ProvisionRequest(
        String name,
        String instanceType,
        Compose composeFile,
        Integer diskSize,
        Long teepodId,
        String region,
        String image) {

    public static final String DEFAULT_INSTANCE_TYPE = "tdx.small";

    public ProvisionRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(composeFile, "composeFile");
        instanceType = instanceType == null || instanceType.isBlank() ? DEFAULT_INSTANCE_TYPE : instanceType;
    }

    /** The SDK's {@code compose_file} schema: any other field (public_tcbinfo, secure_time, ...) it would strip. */
    public record Compose(
            List<String> allowedEnvs,
            String preLaunchScript,
            String dockerComposeFile,
            String name,
            Boolean kmsEnabled,
            Boolean publicLogs,
            Boolean publicSysinfo,
            Boolean gatewayEnabled,
            String storageFs) {

        public Compose {
            name = name == null ? "" : name;
            allowedEnvs = allowedEnvs == null ? null : List.copyOf(allowedEnvs);
        }
    }
}
