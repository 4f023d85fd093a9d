package com.statefulcvm.simulator.version;

import java.util.Arrays;
import java.util.stream.Collectors;

import com.statefulcvm.simulator.cloud.ApiException;

/**
 * The API versions the simulator speaks, named by the caller's {@code X-Phala-Version} header. Without the header the
 * oldest shapes (integer ids) come back, as the Terraform provider describes the service ({@code provider.go}: "The
 * backend only emits that shape when the X-Phala-Version header requests it; sending an older version returns integer
 * ids"). Each version brings the {@link ApiViews} that give its wire shapes; nothing else in the simulator depends on
 * the version.
 */
public enum ApiVersion {

    /** Integer CVM ids everywhere; lists carry the VM under {@code hosted}; the SDK's legacy shapes. */
    V2025_10_28("2025-10-28", new ViewsV20251028()),
    /** CVMInfo with {@code resource}/{@code node_info}/{@code os}, its id the hashed one; legacy VM records. */
    V2026_01_21("2026-01-21", new ViewsV20260121()),
    /** Hashed {@code cvm_…} ids everywhere; what the Terraform provider (Go SDK) speaks. */
    V2026_05_22("2026-05-22", new ViewsV20260522());

    public static final String HEADER = "X-Phala-Version";
    public static final ApiVersion LATEST = V2026_05_22;
    /** What a request without {@code X-Phala-Version} gets. */
    public static final ApiVersion OLDEST = V2025_10_28;

    private final String wireName;
    private final ApiViews views;

    ApiVersion(String wireName, ApiViews views) {
        this.wireName = wireName;
        this.views = views;
    }

    /** As the header names it, e.g. {@code 2026-01-21}. */
    public String wireName() {
        return wireName;
    }

    public ApiViews views() {
        return views;
    }

    /**
     * The version a request asked for: the header's value, the oldest when it is absent or blank; any other value
     * is refused with 400 {@code {"detail": "Unsupported API version ..."}}.
     */
    public static ApiVersion fromHeader(String header) {
        if (header == null || header.isBlank()) {
            return OLDEST;
        }
        String wanted = header.trim();
        return Arrays.stream(values())
                .filter(version -> version.wireName.equals(wanted))
                .findFirst()
                .orElseThrow(() -> ApiException.badRequest("Unsupported API version '" + wanted
                        + "' in " + HEADER + "; supported: " + supported()));
    }

    public static String supported() {
        return Arrays.stream(values()).map(ApiVersion::wireName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return wireName;
    }
}
