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
