package com.statefulcvm.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.ArrayList;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What one slot of a set has of its own (the fleet file's {@code instances:} list): labels, an instance type, a disk
 * size and the node it is placed on. Unset fields take the set's value ({@link ReplicaSetSpec#slotSpec}). Mutable so
 * that Spring Boot can bind it.
 */
public class InstanceOverride {

    /** A label key as Kubernetes writes them: an optional DNS prefix, then a name of letters, digits, '-', '_' and '.'. */
    private static final Pattern LABEL_KEY = Pattern.compile("^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$");
    private static final Pattern INSTANCE_TYPE = Pattern.compile("^[a-z0-9][a-z0-9.-]*$");
    static final int MAX_LABEL_VALUE = 256;

    private Integer ordinal;
    private Map<String, String> labels = new LinkedHashMap<>();
    private String instanceType;
    private Integer diskSize;
    /** Phala's node (teepod) id the slot's CVM is created on. */
    private Integer nodeId;

    public InstanceOverride() {
    }

    public InstanceOverride(Integer ordinal, Map<String, String> labels, String instanceType, Integer diskSize, Integer nodeId) {
        this.ordinal = ordinal;
        this.labels = labels == null ? new LinkedHashMap<>() : new LinkedHashMap<>(labels);
        this.instanceType = instanceType;
        this.diskSize = diskSize;
        this.nodeId = nodeId;
    }

    /**
     * Every problem of this override for a set of {@code maxOrdinal + 1} possible slots, each as {@code field: problem}
     * relative to the override ({@code ordinal}, {@code labels.<key>}, {@code nodeId}, ...). The set's disk size is
     * the floor: Phala grows a disk, never shrinks it.
     */
    public List<String> problems(int slotLimit, String slotLimitReason) {
        List<String> problems = new ArrayList<>();
        if (ordinal == null) {
            problems.add("ordinal: is required (the slot's number: 0 for <set>-0)");
        } else if (ordinal < 0 || ordinal >= slotLimit) {
            problems.add("ordinal: " + ordinal + " is not a slot of the set (ordinals 0.." + (slotLimit - 1) + ", " + slotLimitReason + ")");
        }
        if (labels != null) {
            labels.forEach((key, value) -> {
                if (key == null || !LABEL_KEY.matcher(key).matches()) {
                    problems.add("labels." + key + ": is not a label key (letters, digits, '-', '_', '.', at most 63, optionally prefixed 'example.com/')");
                } else if (value == null || value.length() > MAX_LABEL_VALUE) {
                    problems.add("labels." + key + ": needs a value of at most " + MAX_LABEL_VALUE + " characters");
                }
            });
        }
        if (instanceType != null && !INSTANCE_TYPE.matcher(instanceType).matches()) {
            problems.add("instanceType: must be an instance type name such as tdx.small (was '" + instanceType + "')");
        }
        if (diskSize != null && diskSize < 1) {
            problems.add("diskSize: must be at least 1 (GB) (was " + diskSize + ")");
        }
        if (nodeId != null && nodeId < 0) {
            problems.add("nodeId: must be a Phala node id, 0 or more (was " + nodeId + ")");
        }
        return problems;
    }

    public Integer getOrdinal() { return ordinal; }

    public void setOrdinal(Integer ordinal) { this.ordinal = ordinal; }

    public Map<String, String> getLabels() { return labels; }

    public void setLabels(Map<String, String> labels) { this.labels = labels; }

    public String getInstanceType() { return instanceType; }

    public void setInstanceType(String instanceType) { this.instanceType = instanceType; }

    public Integer getDiskSize() { return diskSize; }

    public void setDiskSize(Integer diskSize) { this.diskSize = diskSize; }

    public Integer getNodeId() { return nodeId; }

    public void setNodeId(Integer nodeId) { this.nodeId = nodeId; }
}
