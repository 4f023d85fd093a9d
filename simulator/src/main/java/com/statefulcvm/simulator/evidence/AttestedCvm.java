package com.statefulcvm.simulator.evidence;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a simulated CVM measures into RTMR3 about itself: its app, compose hash and instance, the OS image and the
 * storage file system. Hex is lower-case without prefix.
 *
 * @param appId       20 bytes, 40 hex
 * @param composeHash 32 bytes, 64 hex
 * @param instanceId  20 bytes, 40 hex
 * @param osImageHash 32 bytes, 64 hex
 * @param storageFs   the {@code storage-fs} event's text ({@code zfs}, {@code ext4})
 */
public record AttestedCvm(String appId, String composeHash, String instanceId, String osImageHash,
                          String storageFs) {

    private static final Pattern HEX = Pattern.compile("^[0-9a-f]*$");

    public AttestedCvm {
        appId = hex(appId, 20, "app_id");
        composeHash = hex(composeHash, 32, "compose_hash");
        instanceId = hex(instanceId, 20, "instance_id");
        osImageHash = hex(osImageHash, 32, "os_image_hash");
        storageFs = Objects.requireNonNullElse(storageFs, "zfs");
    }

    AttestedCvm withAppId(String newAppId) {
        return new AttestedCvm(newAppId, composeHash, instanceId, osImageHash, storageFs);
    }

    AttestedCvm withComposeHash(String newComposeHash) {
        return new AttestedCvm(appId, newComposeHash, instanceId, osImageHash, storageFs);
    }

    private static String hex(String value, int bytes, String field) {
        Objects.requireNonNull(value, field);
        String lower = value.toLowerCase(java.util.Locale.ROOT);
        if (lower.length() != bytes * 2 || !HEX.matcher(lower).matches()) {
            throw new IllegalArgumentException(field + " must be " + bytes + " bytes of hex, not '" + value + "'");
        }
        return lower;
    }
}
