package com.statefulcvm.simulator.api;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * {@code GET /cvms/{cvm_id}/stats}: the guest agent's system info, the same shape in every API version. Sizes are
 * bytes, {@code uptime} seconds; {@code sysinfo} is null while the CVM is not running.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmStats(
        boolean isOnline,
        boolean isPublic,
        String error,
        SysInfo sysinfo,
        String status,
        boolean inProgress,
        String bootProgress,
        String bootError) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record SysInfo(
            String osName,
            String osVersion,
            String kernelVersion,
            String cpuModel,
            int numCpus,
            long totalMemory,
            long availableMemory,
            long usedMemory,
            long freeMemory,
            long totalSwap,
            long usedSwap,
            long freeSwap,
            long uptime,
            double loadavgOne,
            double loadavgFive,
            double loadavgFifteen,
            List<Disk> disks) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Disk(String name, String mountPoint, long totalSize, long freeSize) {
    }
}
