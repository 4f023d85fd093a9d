package com.statefulcvm.simulator.cloud;

import com.statefulcvm.simulator.SimulatorProperties;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The workspace's limits (SDK {@code getWorkspaceQuotas}: {@code vm_slots}, {@code vcpu}, {@code memory_mb},
 * {@code disk_gb}), what remains of them given the CVMs that exist, and the refusal of a create beyond them
 * ({@code ERR-02-015}, quota exceeded). The limits start as the simulator's settings ({@code simulator.quota.*}), changed through the admin API.
 */
public final class WorkspaceQuota {

    private final SimulatorProperties.Quota initial;
    private volatile int vmSlots;
    private volatile int vcpu;
    private volatile int memoryMb;
    private volatile int diskGb;

    public WorkspaceQuota(SimulatorProperties.Quota initial) {
        this.initial = initial;
        reset();
    }

    /** Back to the settings (the admin reset). */
    public void reset() {
        vmSlots = initial.getVmSlots();
        vcpu = initial.getVcpu();
        memoryMb = initial.getMemoryMb();
        diskGb = initial.getDiskGb();
    }

    public void set(Integer newVmSlots, Integer newVcpu, Integer newMemoryMb, Integer newDiskGb) {
        if (newVmSlots != null) {
            vmSlots = newVmSlots;
        }
        if (newVcpu != null) {
            vcpu = newVcpu;
        }
        if (newMemoryMb != null) {
            memoryMb = newMemoryMb;
        }
        if (newDiskGb != null) {
            diskGb = newDiskGb;
        }
    }

    public Map<String, Integer> limits() {
        Map<String, Integer> limits = new LinkedHashMap<>();
        limits.put("vmSlots", vmSlots);
        limits.put("vcpu", vcpu);
        limits.put("memoryMb", memoryMb);
        limits.put("diskGb", diskGb);
        return limits;
    }

    /** Metric name to {@code {limit, remaining}}, the SDK's {@code QuotaMetricSchema}. */
    Map<String, Map<String, Integer>> usage(CvmDirectory directory) {
        int cvms = 0;
        int usedVcpu = 0;
        int usedMemoryMb = 0;
        int usedDisk = 0;
        for (SimulatedCvm cvm : directory.cvms()) {
            int[] size = CvmViews.size(cvm.instanceType);
            cvms++;
            usedVcpu += size[0];
            usedMemoryMb += size[1] * 1024;
            usedDisk += cvm.diskSize;
        }
        Map<String, Map<String, Integer>> quotas = new LinkedHashMap<>();
        quotas.put("vm_slots", metric(vmSlots, cvms));
        quotas.put("vcpu", metric(vcpu, usedVcpu));
        quotas.put("memory_mb", metric(memoryMb, usedMemoryMb));
        quotas.put("disk_gb", metric(diskGb, usedDisk));
        return quotas;
    }

    void checkRoomFor(CvmDirectory directory, String instanceType, int diskSize) {
        Map<String, Map<String, Integer>> usage = usage(directory);
        int[] size = CvmViews.size(instanceType);
        Map<String, Integer> needs = Map.of("vm_slots", 1, "vcpu", size[0], "memory_mb", size[1] * 1024,
                "disk_gb", diskSize);
        for (Map.Entry<String, Integer> need : needs.entrySet()) {
            int remaining = usage.get(need.getKey()).get("remaining");
            if (need.getValue() > remaining) {
                throw ApiException.structured(400, "ERR-02-015", "Quota exceeded", need.getKey(), remaining,
                        "The workspace has " + remaining + " " + need.getKey() + " left; this CVM needs " + need.getValue());
            }
        }
    }

    private static Map<String, Integer> metric(int limit, int used) {
        Map<String, Integer> metric = new LinkedHashMap<>();
        metric.put("limit", limit);
        metric.put("remaining", Math.max(0, limit - used));
        return metric;
    }
}
