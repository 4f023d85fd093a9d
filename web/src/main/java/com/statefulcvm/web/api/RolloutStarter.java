package com.statefulcvm.web.api;

import com.statefulcvm.delegates.rollout.RolloutVariables;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Starts rollout.bpmn for a set, at most one at a time per set (the business key is the set's name). */
@Component
class RolloutStarter {

    private final RuntimeService runtime;
    private final IdentityService identity;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    RolloutStarter(RuntimeService runtime, IdentityService identity) {
        this.runtime = runtime;
        this.identity = identity;
    }

    String start(ReplicaSetSpec spec, String dockerCompose) {
        synchronized (locks.computeIfAbsent(spec.getName(), k -> new Object())) {
            List<ProcessInstance> running = runtime.createProcessInstanceQuery()
                    .processDefinitionKey(RolloutVariables.PROCESS_KEY)
                    .processInstanceBusinessKey(spec.getName())
                    .list();
            if (!running.isEmpty()) {
                throw new ApiProblem(HttpStatus.CONFLICT, "a rollout of '" + spec.getName() + "' is already running",
                        Map.of("processInstanceId", running.get(0).getId()));
            }
            Map<String, Object> variables = new HashMap<>();
            variables.put(RolloutVariables.REPLICA_SET, spec.getName());
            variables.put(RolloutVariables.TARGET_COMPOSE, dockerCompose);
            Authentication caller = identity.getCurrentAuthentication();
            variables.put("requestedBy", caller == null ? "unknown" : caller.getUserId());
            return runtime.createProcessInstanceByKey(RolloutVariables.PROCESS_KEY)
                    .businessKey(spec.getName())
                    .setVariables(variables)
                    .execute()
                    .getId();
        }
    }
}
