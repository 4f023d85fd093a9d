package com.statefulcvm.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a per-rollout update policy override changes, field by field, beside the fleet file's value: what the approver
 * of the rollout reads before deciding it. A change that removes an approval the fleet file asks for (the leader's:
 * {@code approveLeader: false}, or an order other than role-aware where the file approves the leader) weakens an
 * approval: it takes effect only with the approver's own acceptance, not on the requester's word alone.
 */
public record PolicyOverrideChanges(List<Change> changes) {

    /** One field: its value in the fleet file, its value for this rollout, and the approval it removes (or null). */
    public record Change(String field, String fleetValue, String value, String removesApproval) {
        public String display() {
            return field + ": " + value + " (fleet file: " + fleetValue + ")"
                    + (removesApproval == null ? "" : ": REMOVES " + removesApproval);
        }
    }

    private static final String LEADER_APPROVAL = "the leader's approval the fleet file asks for (approve-leader: true)";

    public PolicyOverrideChanges {
        changes = List.copyOf(changes);
    }

    /** The fields in which {@code effective} differs from the fleet file's {@code fleet}, in the file's order. */
    public static PolicyOverrideChanges between(UpdatePolicy fleet, UpdatePolicy effective) {
        List<Change> changes = new ArrayList<>();
        boolean fleetApprovesLeader = fleet.isApproveLeader() && fleet.getOrder() == RolloutOrder.ROLE_AWARE;
        add(changes, "type", fleet, effective, UpdatePolicy::getType, null);
        add(changes, "minimalAction", fleet, effective, UpdatePolicy::getMinimalAction, null);
        add(changes, "mostDisruptiveAllowedAction", fleet, effective, UpdatePolicy::getMostDisruptiveAllowedAction, null);
        add(changes, "maxUnavailable", fleet, effective, UpdatePolicy::getMaxUnavailable, null);
        add(changes, "maxSurge", fleet, effective, UpdatePolicy::getMaxSurge, null);
        add(changes, "minReadySeconds", fleet, effective, UpdatePolicy::getMinReadySeconds, null);
        add(changes, "partition", fleet, effective, UpdatePolicy::getPartition, null);
        add(changes, "order", fleet, effective, UpdatePolicy::getOrder,
                fleetApprovesLeader && effective.getOrder() != RolloutOrder.ROLE_AWARE ? LEADER_APPROVAL + ", which only order role-aware has" : null);
        add(changes, "progressDeadlineSeconds", fleet, effective, UpdatePolicy::getProgressDeadlineSeconds, null);
        add(changes, "onFailure", fleet, effective, UpdatePolicy::getOnFailure, null);
        // the file's approve-leader: true asks for the leader's approval, whatever the order now: its removal is never quiet
        add(changes, "approveLeader", fleet, effective, UpdatePolicy::isApproveLeader,
                fleet.isApproveLeader() && !effective.isApproveLeader() ? LEADER_APPROVAL : null);
        return new PolicyOverrideChanges(changes);
    }

    private static void add(List<Change> changes, String field, UpdatePolicy fleet, UpdatePolicy effective,
                            Function<UpdatePolicy, Object> value, String removesApproval) {
        Object before = value.apply(fleet);
        Object after = value.apply(effective);
        if (!Objects.equals(before, after)) {
            changes.add(new Change(field, shown(before), shown(after), removesApproval));
        }
    }

    private static String shown(Object value) {
        return value instanceof Enum<?> e ? e.name() : String.valueOf(value);
    }

    /** True when a change removes an approval the fleet file asks for. */
    public boolean weakensApprovals() {
        return changes.stream().anyMatch(c -> c.removesApproval() != null);
    }

    /** One line per change, "none" without one: what the approval form shows. */
    public String display() {
        if (changes.isEmpty()) {
            return "none: this rollout runs under the fleet file's update policy";
        }
        StringBuilder text = new StringBuilder();
        changes.forEach(c -> text.append(c.display()).append('\n'));
        if (weakensApprovals()) {
            text.append("This override removes an approval: approving the rollout also needs your own acceptance of it "
                    + "(Accept the overrides).\n");
        }
        return text.toString();
    }
}
