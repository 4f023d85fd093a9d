package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.workload.WorkloadApiException;
import com.statefulcvm.connectors.workload.consul.ConsulClient;
import com.statefulcvm.connectors.workload.consul.ConsulRaftConfiguration;
import com.statefulcvm.connectors.workload.consul.ConsulRaftServer;
import com.statefulcvm.fleet.Slots;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * leave-consul: "Leave the cluster gracefully": {@code PUT /v1/agent/leave} on the server itself (it leaves the raft
 * configuration and shuts its agent down), then waits until another server's raft configuration no longer lists it.
 * drain-consul has checked autopilot's failure tolerance and moved leadership first. A server whose CVM does not run
 * (a replacement of a lost one) is removed through another server instead.
 */
@Component("leaveConsul")
public class LeaveConsul extends HookStep {


    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        Optional<OtherServer> other = otherServer(context);
        if (other.isEmpty()) {
            return Answer.notYet("waiting: no other Consul server of " + context.spec().getName() + " answers");
        }
        Optional<ConsulRaftServer> self = other.get().raft().byNode(context.member());
        if (self.isEmpty()) {
            return Answer.ready(context.member() + " is not in the raft configuration (any more)");
        }
        if (context.cvm().filter(CvmInfo::isRunning).isEmpty()) {
            // a server whose CVM is stopped or gone cannot leave by itself (a replacement of a lost one): another
            // server removes it from the raft peers, as `consul operator raft remove-peer` does
            other.get().client().removeRaftPeer(self.get().id());
            return Answer.notYet(context.member() + " (not running) removed from the raft peers through " + other.get().name()
                    + "; waiting for the raft configuration to drop it");
        }
        if (!Boolean.TRUE.equals(execution.getVariable(HookVariables.CONSUL_LEAVE_SENT))) {
            context.consul().leave();
            execution.setVariable(HookVariables.CONSUL_LEAVE_SENT, true);
            return Answer.notYet(context.member() + " asked to leave; waiting for the raft configuration to drop it");
        }
        return Answer.notYet("waiting for the raft configuration to drop " + context.member());
    }

    private record OtherServer(String name, ConsulClient client, ConsulRaftConfiguration raft) {
    }

    private static Optional<OtherServer> otherServer(HookContext context) {
        for (CvmInfo cvm : context.appCvms()) {
            if (cvm.name() == null || cvm.name().equals(context.slot()) || !cvm.isRunning()
                    || Slots.ordinalOf(context.spec().getName(), cvm.name()).isEmpty()) {
                continue;
            }
            try {
                ConsulClient client = new ConsulClient(context.adminUri(cvm), context.timeout());
                return Optional.of(new OtherServer(cvm.name(), client, client.raftConfiguration()));
            } catch (WorkloadApiException | IllegalArgumentException unreachable) {
                // try the next server
            }
        }
        return Optional.empty();
    }
}
