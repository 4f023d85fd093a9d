package com.statefulcvm.fleet;

/**
 * One platform a set's CVMs may run on: the TD's measurements that the OS image and its firmware determine, MRTD (the
 * virtual firmware) and RTMR0 to RTMR2 (firmware configuration, kernel and command line, initrd), 48 bytes each as hex.
 * An up-to-date host running another OS image shows other values. {@code name} only labels the entry (an OS image's
 * version). Mutable so that Spring Boot can bind it.
 */
public class PlatformMeasurements {

    private String name;
    private String mrtd;
    private String rtmr0;
    private String rtmr1;
    private String rtmr2;

    public PlatformMeasurements() {
    }

    public PlatformMeasurements(String name, String mrtd, String rtmr0, String rtmr1, String rtmr2) {
        this.name = name;
        this.mrtd = mrtd;
        this.rtmr0 = rtmr0;
        this.rtmr1 = rtmr1;
        this.rtmr2 = rtmr2;
    }

    /** "dstack-0.5.3 (MRTD 1a2b3c4d5e6f…)": how a refusal names it. */
    public String describe() {
        return (name == null || name.isBlank() ? "" : name + " ") + "(MRTD " + (mrtd == null ? "?" : mrtd.length() <= 12 ? mrtd : mrtd.substring(0, 12) + "…") + ")";
    }

    /** "MRTD &lt;hex&gt;, RTMR0 &lt;hex&gt;, RTMR1 &lt;hex&gt;, RTMR2 &lt;hex&gt;": every value in full, as a refusal records it. */
    public String full() {
        return "MRTD " + mrtd + ", RTMR0 " + rtmr0 + ", RTMR1 " + rtmr1 + ", RTMR2 " + rtmr2;
    }

    /** The measurements of {@link #full()}'s text; empty when it is not that form. */
    public static java.util.Optional<PlatformMeasurements> parseFull(String text, String name) {
        java.util.regex.Matcher m = FULL.matcher(text == null ? "" : text);
        return m.matches() ? java.util.Optional.of(new PlatformMeasurements(name, m.group(1), m.group(2), m.group(3), m.group(4)))
                : java.util.Optional.empty();
    }

    private static final java.util.regex.Pattern FULL = java.util.regex.Pattern.compile(
            "^MRTD ([0-9a-fA-F]+), RTMR0 ([0-9a-fA-F]+), RTMR1 ([0-9a-fA-F]+), RTMR2 ([0-9a-fA-F]+)$");

    /** Same MRTD and RTMR0-2 (hex compared case-insensitively); the name is only a label. */
    public boolean sameMeasurements(PlatformMeasurements other) {
        return other != null && eq(mrtd, other.mrtd) && eq(rtmr0, other.rtmr0) && eq(rtmr1, other.rtmr1) && eq(rtmr2, other.rtmr2);
    }

    private static boolean eq(String a, String b) {
        return a != null && b != null && a.equalsIgnoreCase(b);
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getMrtd() { return mrtd; }
    public void setMrtd(String mrtd) { this.mrtd = mrtd; }
    public String getRtmr0() { return rtmr0; }
    public void setRtmr0(String rtmr0) { this.rtmr0 = rtmr0; }
    public String getRtmr1() { return rtmr1; }
    public void setRtmr1(String rtmr1) { this.rtmr1 = rtmr1; }
    public String getRtmr2() { return rtmr2; }
    public void setRtmr2(String rtmr2) { this.rtmr2 = rtmr2; }
}
