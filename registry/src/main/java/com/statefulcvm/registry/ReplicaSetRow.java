package com.statefulcvm.registry;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import java.time.Instant;

@Table("orch_replica_set")
record ReplicaSetRow(@Id String name, String appId, Instant createdAt, String envEncryptPubkey) {
}
