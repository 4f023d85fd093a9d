package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.consul.ConsulRaftConfiguration;
import com.statefulcvm.fleet.Slots;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * leave-consul: "Leave the cluster gracefully": {@code PUT /v1/agent/leave} on the server itself (it leaves the raft
 * configuration and shuts its agent down), then waits until another server's raft configuration no longer lists it.
 * drain-consul has checked autopilot's failure tolerance and moved leadership first.
 */
@Component("leaveConsul")
public class LeaveConsul extends HookStep {


    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        Optional<ConsulRaftConfiguration> raft = otherServersView(context);
        if (raft.isEmpty()) {
            return Answer.notYet("waiting: no other Consul server of " + context.spec().getName() + " answers");
        }
        if (raft.get().byNode(context.member()).isEmpty()) {
            return Answer.ready(context.member() + " is not in the raft configuration (any more)");
        }
        if (!Boolean.TRUE.equals(execution.getVariable(HookVariables.CONSUL_LEAVE_SENT)) && context.cvm().filter(CvmInfo::isRunning).isPresent()) {
            context.consul().leave();
            execution.setVariable(HookVariables.CONSUL_LEAVE_SENT, true);
            return Answer.notYet(context.member() + " asked to leave; waiting for the raft configuration to drop it");
        }
        return Answer.notYet("waiting for the raft configuration to drop " + context.member());
    }

    private static Optional<ConsulRaftConfiguration> otherServersView(HookContext context) {
        for (CvmInfo cvm : context.appCvms()) {
            if (cvm.name() == null || cvm.name().equals(context.slot()) || !cvm.isRunning()
                    || Slots.ordinalOf(context.spec().getName(), cvm.name()).isEmpty()) {
                continue;
            }
            try {
                return Optional.of(new ConsulClient(context.adminUri(cvm), context.timeout()).raftConfiguration());
            } catch (WorkloadApiException | IllegalArgumentException unreachable) {
                // try the next server
            }
        }
        return Optional.empty();
    }
}
