package com.statefulcvm.simulator.cloud;

import java.util.List;

import com.statefulcvm.simulator.api.CvmStats;

/**
 * The guest agent's system info of a simulated CVM: the machine's sizes come from its instance type and disk size;
 * the usage figures are made up, stable per CVM (seeded by its vm_uuid), and nothing in them is measured.
 */
final class StatsBuilder {

    private static final long GIB = 1024L * 1024 * 1024;
    private static final long ROOTFS_BYTES = 2 * GIB;
    private static final String KERNEL = "6.9.0-dstack";
    private static final String CPU_MODEL = "INTEL(R) XEON(R) PLATINUM 8580 (simulated)";

    private StatsBuilder() {
    }

    static CvmStats build(CvmSnapshot cvm) {
        boolean publicSysinfo = cvm.composeFlag("public_sysinfo", true);
        CvmStats.SysInfo sysinfo = cvm.online() ? sysinfo(cvm) : null;
        return new CvmStats(cvm.online(), publicSysinfo, cvm.online() ? null : "CVM is not running", sysinfo,
                cvm.status(), cvm.inProgress(), cvm.bootProgress(), null);
    }

    private static CvmStats.SysInfo sysinfo(CvmSnapshot cvm) {
        int seed = Math.floorMod(cvm.vmUuid().hashCode(), 1000);
        long totalMemory = cvm.memoryGb() * GIB;
        long usedMemory = totalMemory * (18 + seed % 20) / 100;
        long freeMemory = totalMemory * (30 + seed % 15) / 100;
        long availableMemory = totalMemory - usedMemory;
        long dataDisk = cvm.diskSize() * GIB;
        long dataFree = dataDisk * (80 + seed % 15) / 100;
        double load = (seed % 40) / 100.0;
        String dataDevice = "zfs".equals(cvm.storageFs()) ? "dstack" : "/dev/vdb";
        return new CvmStats.SysInfo(CvmSnapshot.OS_NAME, CvmSnapshot.OS_VERSION, KERNEL, CPU_MODEL, cvm.vcpu(),
                totalMemory, availableMemory, usedMemory, freeMemory, 0, 0, 0, cvm.uptimeSeconds(),
                load, load * 0.8, load * 0.6,
                List.of(new CvmStats.Disk("rootfs", "/", ROOTFS_BYTES, ROOTFS_BYTES / 3),
                        new CvmStats.Disk(dataDevice, "/dstack/persistent", dataDisk, dataFree)));
    }
}
