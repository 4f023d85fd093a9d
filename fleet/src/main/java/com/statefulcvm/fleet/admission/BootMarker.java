package com.statefulcvm.fleet.admission;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a CVM's current boot began, from the {@code uptime} Phala reports ({@code GET /cvms/{id}/state},
 * {@code POST /status/batch}): now minus the uptime. It is the marker that shows a restart nobody asked us for: a CVM
 * whose current boot began after its last verified attestation is not the boot that was attested. Phala's uptime is a
 * duration in words ("1h 2m 3s", "3d 4h", "45s"; a bare number is seconds) at a resolution of one second, read at
 * some latency: {@link #TOLERANCE} absorbs both, far below any real restart (minutes on Phala).
 */
public final class BootMarker {

    public static final Duration TOLERANCE = Duration.ofSeconds(2);

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(d|h|m|s|ms)?\\b");

    private BootMarker() {
    }

    /** The uptime in words as a duration; empty when it says nothing we can read (absent, "", "unknown"). */
    public static Optional<Duration> uptime(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.trim().toLowerCase();
        Matcher m = PART.matcher(t);
        Duration total = Duration.ZERO;
        int end = 0;
        boolean any = false;
        while (m.find()) {
            if (!t.substring(end, m.start()).isBlank()) {
                return Optional.empty();
            }
            double value = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            long millis = (long) (value * switch (unit) {
                case "d" -> 86_400_000L;
                case "h" -> 3_600_000L;
                case "m" -> 60_000L;
                case "ms" -> 1L;
                default -> 1_000L;
            });
            total = total.plusMillis(millis);
            end = m.end();
            any = true;
        }
        return any && t.substring(end).isBlank() ? Optional.of(total) : Optional.empty();
    }

    /** When the current boot began, seen at {@code now}; empty when the uptime cannot be read. */
    public static Optional<Instant> bootedAt(Instant now, String uptime) {
        return uptime(uptime).map(now::minus);
    }

    /** True when the boot began after the attestation (beyond the tolerance): the attested boot is over. */
    public static boolean bootedSince(Instant bootedAt, Instant attestedAt) {
        return bootedAt != null && attestedAt != null && bootedAt.isAfter(attestedAt.plus(TOLERANCE));
    }
}
