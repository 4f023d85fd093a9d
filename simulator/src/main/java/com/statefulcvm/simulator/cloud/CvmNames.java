package com.statefulcvm.simulator.cloud;

import java.util.regex.Pattern;

/**
 * The SDK's hostname rule for CVM names ({@code utils/hostname.ts} {@code isValidHostname}, used by
 * {@code ProvisionCvmRequestSchema} and {@code CvmIdObjectSchema}): 5 to 63 characters, a letter first, letters,
 * digits and single hyphens, not ending in a hyphen.
 */
final class CvmNames {

    private static final Pattern HOSTNAME = Pattern.compile("^[a-zA-Z](?!.*--)([a-zA-Z0-9-]*[a-zA-Z0-9])?$");

    private CvmNames() {
    }

    static boolean valid(String name) {
        return name != null && name.length() >= 5 && name.length() <= 63 && HOSTNAME.matcher(name).matches();
    }

    /** @throws ApiException 400 ERR-01-003 naming the rule */
    static void check(String name) {
        if (!valid(name)) {
            throw ApiException.structured(400, "ERR-01-003", "Invalid CVM name", "name", name,
                    "Name must be 5-63 characters, start with letter, and contain only letters/numbers/hyphens");
        }
    }
}
