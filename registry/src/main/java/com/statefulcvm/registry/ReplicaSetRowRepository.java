package com.statefulcvm.registry;

import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.Repository;

import java.time.Instant;
import java.util.Optional;

interface ReplicaSetRowRepository extends Repository<ReplicaSetRow, String> {

    // written out for the same reason as InstanceRowRepository's finders: a derived query is built on every call
    @Query("SELECT * FROM orch_replica_set WHERE name = :name")
    Optional<ReplicaSetRow> findById(String name);

    /** The id is assigned by us, so Spring Data cannot tell new from existing: insert explicitly. */
    @Modifying
    @Query("INSERT INTO orch_replica_set (name, app_id, created_at) VALUES (:name, :appId, :createdAt)")
    void insert(String name, String appId, Instant createdAt);

    @Modifying
    @Query("UPDATE orch_replica_set SET app_id = :appId WHERE name = :name")
    int updateAppId(String name, String appId);

    @Modifying
    @Query("UPDATE orch_replica_set SET env_encrypt_pubkey = :pubkey WHERE name = :name")
    int updateEnvEncryptPubkey(String name, String pubkey);
}
