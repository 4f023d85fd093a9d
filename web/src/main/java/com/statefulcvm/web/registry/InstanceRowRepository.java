package com.statefulcvm.web.registry;

import org.springframework.data.repository.ListCrudRepository;

import java.util.List;
import java.util.Optional;

interface InstanceRowRepository extends ListCrudRepository<InstanceRow, Long> {

    List<InstanceRow> findByReplicaSetOrderByOrdinal(String replicaSet);

    Optional<InstanceRow> findByReplicaSetAndOrdinal(String replicaSet, int ordinal);
}
