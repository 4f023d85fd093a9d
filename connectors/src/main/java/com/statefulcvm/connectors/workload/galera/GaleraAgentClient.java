package com.statefulcvm.connectors.workload.galera;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.WorkloadHttp;

/**
 * A Galera node's side of the shipped hold-back agent ({@code config/compose/holdback-agent.py --store galera
 * --galera-socket ...}): {@code POST /drain} desyncs the node and makes it refuse client queries
 * ({@code wsrep_desync=ON}, {@code wsrep_reject_queries=ALL}) and says whether the write-sets it received are applied
 * yet; {@code POST /resume} undoes both. Asking again is harmless.
 */
public final class GaleraAgentClient {

    public static final String DRAIN_PATH = "/drain";
    public static final String RESUME_PATH = "/resume";

    private final WorkloadHttp http;

    public GaleraAgentClient(WorkloadHttp http) {
        this.http = http;
    }

    /**
     * @param drained   the node's receive queue is empty: nothing it was sent is left to apply
     * @param recvQueue write-sets received and not applied yet ({@code wsrep_local_recv_queue})
     * @param state     {@code wsrep_local_state_comment} (Donor/Desynced once desynced), or why nothing runs
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Drain(boolean drained, Integer recvQueue, String state) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Resume(boolean resumed, String state) {
    }

    /** @throws WorkloadApiException when the agent does not answer 200 (503: the server did not run the SQL) */
    public Drain drain() {
        return http.read(http.expect(http.call("POST", DRAIN_PATH, null, null, true), 200), Drain.class);
    }

    /** @throws WorkloadApiException as {@link #drain} */
    public Resume resume() {
        return http.read(http.expect(http.call("POST", RESUME_PATH, null, null, true), 200), Resume.class);
    }
}
