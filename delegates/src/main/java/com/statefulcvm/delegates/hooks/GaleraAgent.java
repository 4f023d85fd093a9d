package com.statefulcvm.delegates.hooks;

import com.statefulcvm.connectors.workload.galera.GaleraAgentClient;

/** The hold-back agent of a Galera node's compose, on the set's sequence port (the health check's when none is set). */
final class GaleraAgent {

    private GaleraAgent() {
    }

    static GaleraAgentClient of(HookContext context) {
        return new GaleraAgentClient(context.http("Galera's hold-back agent", context.holdBackAgentPort()));
    }
}
