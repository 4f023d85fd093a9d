package com.statefulcvm.connectors.phala.model;

/** Answer of {@code POST /cvms} (SDK {@code CommitCvmProvisionSchema}): the VM record; its {@code id} is an integer. */
public record CommittedCvm(String id, String name, String status, String appId, String vmUuid) {
}
