package com.statefulcvm.connectors.phala;

/** App ids are shown as {@code app_<40hex>} but {@code /apps/{app_id}} paths want the bare hex. */
public final class AppIds {

    public static final String PREFIX = "app_";

    private AppIds() {
    }

    public static String bare(String appId) {
        if (appId == null || appId.isBlank()) {
            throw new IllegalArgumentException("appId must not be blank");
        }
        String trimmed = appId.trim();
        return trimmed.startsWith(PREFIX) ? trimmed.substring(PREFIX.length()) : trimmed;
    }

    public static String prefixed(String appId) {
        return PREFIX + bare(appId);
    }
}
