package com.statefulcvm.web.e2e;

import com.statefulcvm.workloads.PatroniClusterFixture;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The Patroni end-to-end tests: the set {@code pgdemo} of the workload-patroni profile, backed by a real cluster. */
abstract class PatroniEndToEnd extends WorkloadEndToEnd {

    static final String SET = "pgdemo";
    static final int REPLICAS = 3;

    @Override
    String set() {
        return SET;
    }

    @Override
    int workloadPort() {
        return PatroniClusterFixture.REST_PORT;
    }

    /** A node's own REST API (not through the simulator): the status code of GET path, 0 when it does not answer. */
    static int status(PatroniClusterFixture.Node node, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(node.restApi().resolve(path)).timeout(Duration.ofSeconds(1)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException stoppedOrRestarting) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Who holds the leader lock, asked of the nodes themselves (200 on GET /leader); null while nobody does. */
    static String leaderNow(PatroniClusterFixture patroni) {
        return patroni.nodes().stream().filter(n -> status(n, "/leader") == 200).map(PatroniClusterFixture.Node::name)
                .findFirst().orElse(null);
    }
}
