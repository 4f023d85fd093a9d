package com.statefulcvm.connectors.workload.etcd;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code POST /v3/cluster/member/add}: the new member (its ID; no name and no client URLs until it starts) and every
 * member after the addition, the new one included.
 */
public record EtcdMemberAdded(
        @JsonProperty("header") EtcdResponseHeader header,
        @JsonProperty("member") EtcdMember member,
        @JsonProperty("members") List<EtcdMember> members) {

    public EtcdMemberAdded {
        members = members == null ? List.of() : List.copyOf(members);
    }
}
