package com.statefulcvm.delegates.hooks;

import com.statefulcvm.delegates.procedure.HookVariables;
import com.statefulcvm.connectors.workload.patroni.PatroniActionResult;
import com.statefulcvm.connectors.workload.patroni.PatroniClient;
import com.statefulcvm.connectors.workload.patroni.PatroniCluster;
import com.statefulcvm.connectors.workload.patroni.PatroniMember;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * drain-patroni: "Switch over to the chosen replica". Asks only while this member still leads, so a job that runs
 * again after a crash never moves leadership a second time.
 */
@Component("switchOverPatroniLeader")
public class SwitchOverPatroniLeader extends HookStep {

    private static final Logger log = LoggerFactory.getLogger(SwitchOverPatroniLeader.class);

    @Override
    protected Answer run(HookContext context, DelegateExecution execution) {
        PatroniClient patroni = context.patroni();
        PatroniCluster cluster = patroni.cluster();
        String leader = cluster.leader().map(PatroniMember::name).orElse(null);
        if (!context.member().equals(leader)) {
            return Answer.ready(context.member() + " no longer leads (leader: " + leader + "); no switchover sent");
        }
        String candidate = (String) execution.getVariable(HookVariables.SWITCHOVER_CANDIDATE);
        PatroniActionResult result = patroni.withTimeout(PatroniClient.SWITCHOVER_TIMEOUT).switchover(context.member(), candidate);
        log.info("Patroni switchover {} -> {} for {}: {}", context.member(), candidate, context.spec().getName(), result);
        return Answer.ready("switchover from " + context.member() + " to " + candidate + " accepted: " + result);
    }
}
