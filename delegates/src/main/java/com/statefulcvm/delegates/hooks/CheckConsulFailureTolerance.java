package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.workload.consul.ConsulAutopilotHealth;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.consul.ConsulRaftServer;
import com.statefulcvm.fleet.hooks.QuorumBudget;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

/** drain-consul: "Check autopilot failure tolerance" (at least 1), and whether this server leads. */
@Component("checkConsulFailureTolerance")
public class CheckConsulFailureTolerance extends HookStep {

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        execution.setVariable(HookVariables.IS_LEADER, false);
        if (context.cvm().isEmpty()) {
            return Answer.ready(context.slot() + " has no CVM; nothing to drain");
        }
        ConsulClient consul = context.consul();
        boolean leads = consul.raftConfiguration().byNode(context.member()).map(ConsulRaftServer::leader).orElse(false);
        ConsulAutopilotHealth health = consul.autopilotHealth();
        QuorumBudget.Verdict verdict = QuorumBudget.consul(health.failureTolerance(), health.healthy());
        execution.setVariable(HookVariables.IS_LEADER, leads);
        return new Answer(verdict.allowed(), "consul: " + verdict.reason());
    }
}
