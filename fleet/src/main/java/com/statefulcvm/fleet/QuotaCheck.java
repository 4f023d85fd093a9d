package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether new CVMs fit in what remains of the workspace's quotas (Phala's {@code vm_slots}, {@code vcpu},
 * {@code memory_mb}, {@code disk_gb}), decided when a surge or a scale-up is planned, so that it is refused with the
 * numbers before anything starts instead of failing half way with the service's "quota exceeded".
 */
public final class QuotaCheck {

    private QuotaCheck() {
    }

    /** What the new CVMs need: how many, and each one's size (0 where unknown: then only the count is checked). */
    public record Need(int cvms, double vcpuEach, double memoryMbEach, double diskGbEach) {
    }

    /** A metric's limit and what remains of it. */
    public record Metric(double limit, double remaining) {
    }

    public record Remaining(String workspace, Metric vmSlots, Metric vcpu, Metric memoryMb, Metric diskGb) {
    }

    /** @return why {@code what} does not fit, with the numbers; empty when it fits or needs no new CVM */
    public static Optional<String> refusal(String what, Need need, Remaining remaining) {
        if (need.cvms() <= 0) {
            return Optional.empty();
        }
        List<String> short_ = new ArrayList<>();
        check(short_, "VM slots", need.cvms(), remaining.vmSlots());
        check(short_, "vCPUs", need.cvms() * need.vcpuEach(), remaining.vcpu());
        check(short_, "MB of memory", need.cvms() * need.memoryMbEach(), remaining.memoryMb());
        check(short_, "GB of disk", need.cvms() * need.diskGbEach(), remaining.diskGb());
        if (short_.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(what + " needs " + need.cvms() + " new CVM" + (need.cvms() == 1 ? "" : "s")
                + " but workspace '" + remaining.workspace() + "' is short: " + String.join("; ", short_));
    }

    private static void check(List<String> short_, String name, double needed, Metric metric) {
        if (metric == null || needed <= 0 || needed <= metric.remaining()) {
            return;
        }
        short_.add(number(needed) + " " + name + " needed, " + number(metric.remaining()) + " left of "
                + number(metric.limit()));
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
