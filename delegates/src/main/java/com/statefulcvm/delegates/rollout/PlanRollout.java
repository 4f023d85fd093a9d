package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.delegates.support.ReplicaSetObserver;
import com.statefulcvm.delegates.support.ReplicaSets;
import com.statefulcvm.delegates.support.RolloutSettings;
import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.InstanceSnapshot;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.RolloutPlan;
import com.statefulcvm.fleet.RolloutPlanner;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static com.statefulcvm.delegates.rollout.RolloutVariables.*;

/** "Plan the rollout": observes the set, asks the planner for the order, and sets what the diagram's gates read. */
@Component("planRollout")
public class PlanRollout implements JavaDelegate {

    private final ReplicaSets replicaSets;
    private final ReplicaSetObserver observer;
    private final PhalaCloudClient phala;
    private final RolloutPlanner planner;
    private final RolloutSettings settings;

    public PlanRollout(ReplicaSets replicaSets, ReplicaSetObserver observer, PhalaCloudClient phala,
                       RolloutPlanner planner, RolloutSettings settings) {
        this.replicaSets = replicaSets;
        this.observer = observer;
        this.phala = phala;
        this.planner = planner;
        this.settings = settings;
    }

    @Override
    public void execute(DelegateExecution execution) {
        ReplicaSetSpec spec = replicaSets.spec((String) execution.getVariable(REPLICA_SET));
        String target = (String) execution.getVariable(TARGET_COMPOSE);
        List<InstanceSnapshot> snapshots = new ArrayList<>();
        // Each slot stays bound to the instance_id it has now: an in-place update keeps it, anything else is suspect.
        Map<String, String> boundInstanceIds = new HashMap<>();
        for (InstanceRecord record : observer.refresh(spec)) {
            if (record.instanceId() != null) {
                boundInstanceIds.put(record.slot(), record.instanceId());
            }
            if (record.cvmId() != null) {
                CvmInfo cvm = phala.getCvm(record.cvmId());
                snapshots.add(new InstanceSnapshot(record.ordinal(), record.slot(), cvm.id(), cvm.status(), cvm.dockerCompose(), cvm.composeHash()));
            }
        }
        RolloutPlan plan = planner.plan(spec, snapshots, target);

        execution.setVariable(SLOTS, new ArrayList<>(plan.slotsToUpdate()));
        execution.setVariable(PLAN_SUMMARY, plan.summary());
        execution.setVariable(COMPOSE_DIFF, ComposeText.diff(currentCompose(plan, snapshots), target));
        execution.setVariable(APPROVAL_BEFORE_ROLLOUT, spec.getApprovals().isBeforeRollout());
        execution.setVariable(APPROVAL_BETWEEN_INSTANCES, spec.getApprovals().isBetweenInstances());
        execution.setVariable(CVM_POLL_INTERVAL, settings.cvmPollIntervalIso());
        execution.setVariable(HEALTH_PROBE_INTERVAL, Duration.ofSeconds(spec.getHealthCheck().getIntervalSeconds()).toString());
        execution.setVariable(PROGRESS_DEADLINE, Duration.ofSeconds(spec.getUpdatePolicy().getProgressDeadlineSeconds()).toString());
        execution.setVariable(BOUND_INSTANCE_IDS, boundInstanceIds);
        execution.setVariable(ALLOWED_COMPOSE_HASHES, new ArrayList<>(snapshots.stream().map(InstanceSnapshot::composeHash)
                .filter(Objects::nonNull).distinct().toList()));
        execution.setVariable(STAGE, "planned: " + plan.slotsToUpdate().size() + " of " + spec.getReplicas() + " instances to update");
    }

    /** What the approver compares against: the compose of the first instance the rollout will touch. */
    private static String currentCompose(RolloutPlan plan, List<InstanceSnapshot> snapshots) {
        List<String> slots = plan.slotsToUpdate();
        if (slots.isEmpty()) {
            return snapshots.isEmpty() ? "" : snapshots.get(0).dockerCompose();
        }
        return snapshots.stream().filter(s -> s.slot().equals(slots.get(0))).findFirst()
                .map(InstanceSnapshot::dockerCompose).orElse("");
    }
}
