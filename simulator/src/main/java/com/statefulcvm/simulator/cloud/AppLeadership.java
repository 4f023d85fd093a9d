package com.statefulcvm.simulator.cloud;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

import static com.statefulcvm.simulator.cloud.CvmLifecycle.RUNNING;

/**
 * Who belongs to each app's workload and who leads it, the one source of truth of every simulated workload API
 * (Patroni's {@code /leader} and {@code /cluster}, Consul's raft configuration, etcd's member list; see
 * {@link WorkloadView}), as a Patroni-, Consul- or etcd-like cluster would settle it:
 * <ul>
 * <li><b>Members.</b> A CVM joins when it first runs settled: as the member an etcd member add announced for it, if one
 * waits (by preference one whose peer URL names the CVM), else as a voter, as an initial member or a Patroni replica
 * does. It stays a member while stopped (etcd and Consul keep it; Patroni lists only running members), until it leaves
 * (Consul's leave; it joins again at its next boot), is removed (etcd's member remove; it never comes back by itself)
 * or is deleted (autopilot's dead-server clean-up).</li>
 * <li><b>Leader.</b> At most one per app: only a running, settled voter leads, and a leader that leaves {@code running}
 * (stop, shutdown, restart, update, redeploy, delete, crash), leaves or is removed hands leadership at once to the
 * running voter of the app that comes first in {@link #NAME_ORDER} (a failover). An app without a leader elects that
 * same CVM at the next question. Each new leader starts a new term (Patroni's timeline). The workload's health mark
 * plays no part: Patroni's {@code GET /leader} reports the leader lock, not whether PostgreSQL is up.</li>
 * </ul>
 * Used only under {@link SimulatedCloud}'s lock; the state lives in {@link SimulatedApp}, so the state file keeps it.
 */
final class AppLeadership {

    /**
     * Names compared as "prefix, then trailing number": {@code db-2} before {@code db-10}, as slot ordinals go;
     * otherwise as strings.
     */
    static final Comparator<String> NAME_ORDER = AppLeadership::compareNames;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final CvmDirectory directory;

    AppLeadership(CvmDirectory directory) {
        this.directory = directory;
    }

    /** The app's leader, elected first if it has none; null when none of its voters runs settled. */
    SimulatedCvm leaderOf(SimulatedApp app) {
        join(app);
        SimulatedCvm leader = app.leaderVmUuid == null ? null : directory.cvm(app.leaderVmUuid);
        if (leader == null || !canLead(app, leader)) {
            leader = firstCandidate(app, null);
            setLeader(app, leader);
        }
        return leader;
    }

    boolean leads(SimulatedCvm cvm) {
        SimulatedApp app = directory.app(cvm.appId);
        return app != null && leaderOf(app) == cvm;
    }

    /** Makes the CVM its app's leader (the others are replicas); 409 unless it runs settled as a voting member. */
    void makeLeader(SimulatedCvm cvm) {
        SimulatedApp app = directory.app(cvm.appId);
        if (app == null) {
            throw ApiException.notFound("App");
        }
        join(app);
        if (!canLead(app, cvm)) {
            throw ApiException.detail(409, RUNNING.equals(cvm.status) && cvm.settled()
                    ? "CVM is not a voting member of its app's workload; only a voter can lead"
                    : "CVM is not running; only a running CVM can lead");
        }
        setLeader(app, cvm);
    }

    /**
     * Called before the CVM enters {@code to}: a leader leaving {@code running} hands leadership to the first other
     * voter of its app that runs settled, or to nobody.
     */
    void beforeTransition(SimulatedCvm cvm, String to) {
        SimulatedApp app = directory.app(cvm.appId);
        if (app == null) {
            return;
        }
        join(app);
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        if (member != null && !RUNNING.equals(to)) {
            member.desynced = false;
        }
        if (member != null && RUNNING.equals(cvm.status) && !RUNNING.equals(to) && !member.heldBack) {
            // it keeps what it committed; the others commit on without it
            member.seqno = app.committedSeqno;
            if (releasedRunning(app, cvm)) {
                app.committedSeqno++;
            }
        }
        if (!RUNNING.equals(to) && cvm.vmUuid.equals(app.leaderVmUuid)) {
            handOver(app, cvm);
        }
    }

    /** Called once the CVM has entered its new status: a CVM that now runs settled joins at this boot. */
    void afterTransition(SimulatedCvm cvm) {
        SimulatedApp app = directory.app(cvm.appId);
        if (app != null && runs(cvm)) {
            join(app);
            WorkloadMemberState member = app.members.get(cvm.vmUuid);
            if (member != null) {
                // a member with data waits for a release unless a released member runs (it joins that one)
                member.heldBack = member.seqno >= 0 && !releasedRunning(app, cvm);
            }
        }
    }

    // ---------------------------------------------------------------- the hold-back agent of the compose

    /** The member's held-back position (its seqno), or empty once released or when it is no member. */
    Optional<Long> heldBackSeqno(SimulatedApp app, SimulatedCvm cvm) {
        join(app);
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        return member != null && member.heldBack && runs(cvm) ? Optional.of(member.seqno) : Optional.empty();
    }

    /** The held-back member starts its workload: a seed's state becomes the cluster's, a follower joins the primaries. */
    void release(SimulatedApp app, SimulatedCvm cvm) {
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        if (member == null || !member.heldBack) {
            return;
        }
        if (!releasedRunning(app, cvm)) {
            app.committedSeqno = member.seqno;
        }
        member.heldBack = false;
    }

    /** The agent's drain (true) or resume (false) of a released member; false when it is no member or held back. */
    boolean desync(SimulatedApp app, SimulatedCvm cvm, boolean desynced) {
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        if (member == null || member.heldBack || !runs(cvm)) {
            return false;
        }
        member.desynced = desynced;
        return true;
    }

    boolean desynced(SimulatedApp app, SimulatedCvm cvm) {
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        return member != null && member.desynced;
    }

    private boolean releasedRunning(SimulatedApp app, SimulatedCvm except) {
        return directory.cvmsOf(app).stream().anyMatch(other -> other != except && runs(other)
                && app.members.containsKey(other.vmUuid) && !app.members.get(other.vmUuid).heldBack);
    }

    // ---------------------------------------------------------------- the workload's view and its own API

    /** The app's workload as the CVM asked sees it (every member sees the same). */
    WorkloadView view(SimulatedApp app, SimulatedCvm asked) {
        SimulatedCvm leader = leaderOf(app);
        List<WorkloadMember> members = new ArrayList<>();
        directory.cvmsOf(app).stream()
                .filter(cvm -> app.members.containsKey(cvm.vmUuid))
                .sorted(Comparator.comparing((SimulatedCvm cvm) -> cvm.name, NAME_ORDER))
                .forEach(cvm -> members.add(member(app, cvm, cvm == leader)));
        for (WorkloadMemberState pending : app.pendingMembers) {
            members.add(new WorkloadMember(null, pending.id, null, null, pending.peerUrls, false, false, false,
                    pending.learner));
        }
        Optional<WorkloadMember> self = members.stream()
                .filter(m -> asked != null && asked.name.equals(m.name())).findFirst();
        return new WorkloadView(asked == null ? null : asked.name,
                asked == null ? Upstream.NONE : GatewayRoutes.upstreamOf(asked), self, app.name, clusterId(app),
                app.workloadTerm, app.workloadIndex, members);
    }

    /**
     * Patroni's switchover: {@code leader} must be the leader's name; {@code candidate} a running voter other than it,
     * or null for the first one.
     *
     * @return the new leader's name
     */
    String switchover(SimulatedApp app, String leader, String candidate) {
        SimulatedCvm current = leaderOf(app);
        if (current == null) {
            throw new WorkloadRefusal(503, "Cluster has no leader, can not do switchover");
        }
        if (leader != null && !leader.equals(current.name)) {
            throw new WorkloadRefusal(412, "leader name does not match");
        }
        if (current.name.equals(candidate)) {
            throw new WorkloadRefusal(400, "Switchover target and source are the same");
        }
        SimulatedCvm to = candidate == null ? firstCandidate(app, current) : runningVoter(app, candidate);
        if (to == null) {
            throw new WorkloadRefusal(412, candidate == null
                    ? "switchover is not possible: no good candidates have been found" : "candidate does not exists");
        }
        setLeader(app, to);
        return to.name;
    }

    /** Patroni's failover: the candidate, a running voter, leads; whoever led before. */
    String failover(SimulatedApp app, String candidate) {
        SimulatedCvm to = runningVoter(app, candidate);
        if (to == null) {
            throw new WorkloadRefusal(412, "candidate does not exists");
        }
        if (to == leaderOf(app)) {
            throw new WorkloadRefusal(412, "failover is not possible: candidate is already the leader");
        }
        setLeader(app, to);
        return to.name;
    }

    /**
     * Leadership moved to the running voter {@code target} matches (Consul's transfer-leader by raft ID, etcd's
     * transfer-leadership by member ID), or with a null target to the first other running voter.
     *
     * @return the new leader's name
     */
    String transferLeadership(SimulatedApp app, Predicate<WorkloadMember> target, String refusal) {
        SimulatedCvm current = leaderOf(app);
        if (current == null) {
            throw new WorkloadRefusal(500, "No cluster leader");
        }
        SimulatedCvm to;
        if (target == null) {
            to = firstCandidate(app, current);
        } else {
            to = directory.cvmsOf(app).stream()
                    .filter(cvm -> app.members.containsKey(cvm.vmUuid) && target.test(member(app, cvm, false)))
                    .findFirst().orElse(null);
            if (to != null && !canLead(app, to)) {
                to = null;
            }
        }
        if (to == null) {
            throw new WorkloadRefusal(412, refusal);
        }
        setLeader(app, to);
        return to.name;
    }

    /** Consul's leave: the CVM is no longer a member (nor the leader) until it boots again. */
    void leave(SimulatedApp app, SimulatedCvm cvm) {
        join(app);
        if (app.members.remove(cvm.vmUuid) != null) {
            app.departures.put(cvm.vmUuid, new WorkloadMemberState.Departure(false, cvm.bootedAt));
            app.workloadIndex++;
        }
        if (cvm.vmUuid.equals(app.leaderVmUuid)) {
            handOver(app, cvm);
        }
    }

    /**
     * etcd's member add: a member announced before its CVM starts (the CVM that starts next claims it). etcd refuses a
     * peer URL a member has (409) and a second learner (412).
     */
    WorkloadMember add(SimulatedApp app, List<String> peerUrls, boolean learner) {
        WorkloadView before = view(app, null);
        for (WorkloadMember m : before.members()) {
            if (m.peerUrls().stream().anyMatch(peerUrls::contains)) {
                throw new WorkloadRefusal(409, "etcdserver: Peer URLs already exists");
            }
        }
        if (learner && before.members().stream().anyMatch(WorkloadMember::learner)) {
            throw new WorkloadRefusal(412, "etcdserver: too many learner members in cluster");
        }
        WorkloadMemberState added = new WorkloadMemberState(newMemberId(), peerUrls, learner);
        app.pendingMembers.add(added);
        app.workloadIndex++;
        return new WorkloadMember(null, added.id, null, null, added.peerUrls, false, false, false, learner);
    }

    /** etcd's member promote: a learner whose CVM runs (it is always in sync here) becomes a voter. */
    void promote(SimulatedApp app, String memberId) {
        join(app);
        if (app.pendingMembers.stream().anyMatch(p -> p.id.equals(memberId))) {
            throw new WorkloadRefusal(412, "etcdserver: can only promote a learner member which is in sync with leader");
        }
        SimulatedCvm cvm = memberCvm(app, memberId);
        WorkloadMemberState state = app.members.get(cvm.vmUuid);
        if (!state.learner) {
            throw new WorkloadRefusal(412, "etcdserver: can only promote a learner member");
        }
        if (!runs(cvm)) {
            throw new WorkloadRefusal(412, "etcdserver: can only promote a learner member which is in sync with leader");
        }
        state.learner = false;
        app.workloadIndex++;
    }

    /** etcd's member remove: the member is gone for good (a leader hands over first, abruptly). */
    void remove(SimulatedApp app, String memberId) {
        join(app);
        if (app.pendingMembers.removeIf(p -> p.id.equals(memberId))) {
            app.workloadIndex++;
            return;
        }
        SimulatedCvm cvm = memberCvm(app, memberId);
        app.members.remove(cvm.vmUuid);
        app.departures.put(cvm.vmUuid, new WorkloadMemberState.Departure(true, cvm.bootedAt));
        app.workloadIndex++;
        if (cvm.vmUuid.equals(app.leaderVmUuid)) {
            handOver(app, cvm);
        }
    }

    // ---------------------------------------------------------------- membership

    /**
     * Brings the members up to date with the CVMs: forgets deleted ones, and lets every CVM that runs settled and is
     * no member join (a member announced for it, else as a voter), unless it left during its current boot or was
     * removed and nothing was announced since.
     */
    private void join(SimulatedApp app) {
        List<SimulatedCvm> cvms = directory.cvmsOf(app);
        Set<String> present = new HashSet<>();
        cvms.forEach(cvm -> present.add(cvm.vmUuid));
        if (app.members.keySet().retainAll(present)) {
            app.workloadIndex++;
        }
        app.departures.keySet().retainAll(present);
        for (SimulatedCvm cvm : cvms) {
            if (app.members.containsKey(cvm.vmUuid) || !runs(cvm)) {
                continue;
            }
            WorkloadMemberState.Departure departure = app.departures.get(cvm.vmUuid);
            if (departure != null && Objects.equals(departure.bootedAt, cvm.bootedAt)) {
                continue;
            }
            Optional<WorkloadMemberState> announced = claimAnnounced(app, cvm);
            if (announced.isEmpty() && departure != null && departure.removed) {
                // this boot found nothing announced: only a later boot may claim what is announced after it
                departure.bootedAt = cvm.bootedAt;
                continue;
            }
            app.members.put(cvm.vmUuid, announced.orElseGet(() -> new WorkloadMemberState(memberIdOf(cvm),
                    List.of(defaultPeerUrl(cvm)), false)));
            app.departures.remove(cvm.vmUuid);
            app.workloadIndex++;
        }
    }

    /** The announced member whose peer URL names the CVM, else the oldest announced one; taken off the list. */
    private static Optional<WorkloadMemberState> claimAnnounced(SimulatedApp app, SimulatedCvm cvm) {
        Optional<WorkloadMemberState> named = app.pendingMembers.stream()
                .filter(p -> p.peerUrls.stream().anyMatch(url -> url.contains(cvm.name))).findFirst();
        Optional<WorkloadMemberState> claimed = named.or(() -> app.pendingMembers.stream().findFirst());
        claimed.ifPresent(app.pendingMembers::remove);
        return claimed;
    }

    private WorkloadMember member(SimulatedApp app, SimulatedCvm cvm, boolean leader) {
        WorkloadMemberState state = app.members.get(cvm.vmUuid);
        return new WorkloadMember(cvm.name, state.id, cvm.vmUuid, cvm.internalIp, state.peerUrls, runs(cvm),
                GatewayRoutes.upstreamOf(cvm) == Upstream.HEALTHY, leader, state.learner);
    }

    private SimulatedCvm memberCvm(SimulatedApp app, String memberId) {
        return directory.cvmsOf(app).stream()
                .filter(cvm -> app.members.containsKey(cvm.vmUuid) && app.members.get(cvm.vmUuid).id.equals(memberId))
                .findFirst().orElseThrow(() -> new WorkloadRefusal(404, "etcdserver: member not found"));
    }

    private SimulatedCvm runningVoter(SimulatedApp app, String name) {
        join(app);
        return directory.cvmsOf(app).stream().filter(cvm -> cvm.name.equals(name) && canLead(app, cvm)).findFirst()
                .orElse(null);
    }

    private void handOver(SimulatedApp app, SimulatedCvm leaving) {
        join(app);
        setLeader(app, firstCandidate(app, leaving));
    }

    /** A new leader starts a new term; no leader leaves the term as it was. */
    private static void setLeader(SimulatedApp app, SimulatedCvm leader) {
        String vmUuid = leader == null ? null : leader.vmUuid;
        if (vmUuid != null && !vmUuid.equals(app.leaderVmUuid)) {
            app.workloadTerm++;
            app.workloadIndex++;
        }
        app.leaderVmUuid = vmUuid;
    }

    private SimulatedCvm firstCandidate(SimulatedApp app, SimulatedCvm excluded) {
        return directory.cvmsOf(app).stream()
                .filter(cvm -> cvm != excluded && canLead(app, cvm))
                .min(Comparator.comparing((SimulatedCvm cvm) -> cvm.name, NAME_ORDER))
                .orElse(null);
    }

    private static boolean canLead(SimulatedApp app, SimulatedCvm cvm) {
        WorkloadMemberState member = app.members.get(cvm.vmUuid);
        return runs(cvm) && member != null && !member.learner;
    }

    private static boolean runs(SimulatedCvm cvm) {
        return RUNNING.equals(cvm.status) && cvm.settled();
    }

    private static String defaultPeerUrl(SimulatedCvm cvm) {
        return "http://" + (cvm.internalIp == null ? cvm.name : cvm.internalIp) + ":2380";
    }

    /** A random non-zero uint64, decimal: etcd's member IDs. */
    private static String newMemberId() {
        long id;
        do {
            id = RANDOM.nextLong();
        } while (id == 0);
        return Long.toUnsignedString(id);
    }

    /**
     * A CVM that joins as itself gets an ID derived from its vm_uuid, so a join that a question made and no change saved
     * (see {@link SimulatedCloud#workload}) gives the same ID again after a reload.
     */
    private static String memberIdOf(SimulatedCvm cvm) {
        long id;
        try {
            UUID uuid = UUID.fromString(cvm.vmUuid);
            id = uuid.getMostSignificantBits() ^ uuid.getLeastSignificantBits();
        } catch (IllegalArgumentException notAUuid) {
            id = cvm.vmUuid.hashCode();
        }
        return Long.toUnsignedString(id == 0 ? 1 : id);
    }

    /** Stable per app: the first 8 bytes of its app_id. */
    private static String clusterId(SimulatedApp app) {
        try {
            return Long.toUnsignedString(Long.parseUnsignedLong(app.appId.substring(0, 16), 16));
        } catch (RuntimeException notHex) {
            return Long.toUnsignedString(app.appId == null ? 1 : app.appId.hashCode() & 0xffffffffL);
        }
    }

    private static int compareNames(String a, String b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        int digitsA = trailingDigitsStart(a);
        int digitsB = trailingDigitsStart(b);
        int byPrefix = a.substring(0, digitsA).compareTo(b.substring(0, digitsB));
        if (byPrefix != 0) {
            return byPrefix;
        }
        String numberA = withoutLeadingZeros(a.substring(digitsA));
        String numberB = withoutLeadingZeros(b.substring(digitsB));
        int byNumber = numberA.length() != numberB.length()
                ? Integer.compare(numberA.length(), numberB.length())
                : numberA.compareTo(numberB);
        return byNumber != 0 ? byNumber : a.compareTo(b);
    }

    private static int trailingDigitsStart(String name) {
        int i = name.length();
        while (i > 0 && name.charAt(i - 1) >= '0' && name.charAt(i - 1) <= '9') {
            i--;
        }
        return i;
    }

    private static String withoutLeadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
