package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * One CVM as the API describes it in version 2026-01-21 (SDK {@code CvmInfoV20260121Schema}; {@code
 * CvmInfoDetailV20260121Schema} adds {@code compose_file}). {@code id} is the hashed CVM id. {@code status} is a free
 * string: an unknown value means "not ready", never an error. {@code in_progress} is not in that schema (only in the
 * status batch and older versions): {@link #isSettled()} reads {@code progress} when it is absent. The lifecycle
 * calls answer the VM record (SDK {@code VMSchema}), of which the fields of the same name land here.
 */
public record CvmInfo(
        String id,
        String name,
        String appId,
        String vmUuid,
        String instanceId,
        String status,
        Boolean inProgress,
        Progress progress,
        String composeHash,
        Resource resource,
        NodeInfo nodeInfo,
        OsInfo os,
        String kmsType,
        Gateway gateway,
        String storageFs,
        Integer diskSize,
        List<UrlPair> endpoints,
        List<UrlPair> publicUrls,
        String createdAt,
        String updatedAt,
        ComposeFile composeFile) {

    public static final String STATUS_RUNNING = "running";

    /** No operation under way: the only moment a status can be trusted as final. */
    @JsonIgnore
    public boolean isSettled() {
        boolean busy = Boolean.TRUE.equals(inProgress);
        boolean targetPending = progress != null && progress.target() != null && !progress.target().isBlank();
        return !busy && !targetPending;
    }

    @JsonIgnore
    public boolean isRunning() {
        return STATUS_RUNNING.equals(status);
    }

    /** The same CVM under another name: the slot it fills, for a member the fleet file maps by its own name or id. */
    public CvmInfo withName(String slotName) {
        return slotName.equals(name) ? this : new CvmInfo(id, slotName, appId, vmUuid, instanceId, status, inProgress, progress,
                composeHash, resource, nodeInfo, os, kmsType, gateway, storageFs, diskSize, endpoints, publicUrls, createdAt,
                updatedAt, composeFile);
    }

    public String dockerCompose() {
        return composeFile == null ? null : composeFile.dockerComposeFile();
    }
}
