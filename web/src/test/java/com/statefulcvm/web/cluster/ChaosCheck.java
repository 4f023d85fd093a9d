package com.statefulcvm.web.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The chaos checker's invariants, over what the outside observers recorded during one seed, never over what the
 * orchestrator says about itself: the simulator's journal (every status change of every CVM), the faults the harness
 * injected, the orchestrator's effect intents (only to attribute what the journal shows), the samples of the
 * registry and of Phala, and the workload writers' acknowledged writes.
 * <ol>
 *   <li><b>budget</b>: when the orchestrator takes a slot down (a CVM leaves {@code running} for restarting, updating,
 *   stopping, shutting down or deleting), the slots down by its hand must not exceed the set's budget given the slots
 *   down by a fault ({@link ChaosFleet.Set#budget}, computed from the fleet alone);</li>
 *   <li><b>quorum</b>: for etcd and Patroni, such a take-down never leaves fewer than a majority running;</li>
 *   <li><b>no effect applied twice</b>: every effect the journal shows (a restart, an update, a stop, a start, a
 *   create, a delete) belongs to an intent recorded before it, and no intent has more effects than the calls it made
 *   (its attempts, which rise only when Phala showed an earlier one had not taken);</li>
 *   <li><b>no acknowledged write lost</b>: every write etcd or PostgreSQL acknowledged is there at the end;</li>
 *   <li><b>no slot serving unattested</b>: no sample shows the orchestrator holding a running instance healthy, ready
 *   and unfenced for a boot it has no admitting attestation of (its verdict older than the boot);</li>
 *   <li><b>no identity reused</b>: an instance_id belongs to one CVM (vm_uuid) only, and no two slots of a set are
 *   bound to one instance_id.</li>
 * </ol>
 */
final class ChaosCheck {

    /** Phala's clock and ours are the same machine's; this covers the order of two records made a moment apart. */
    static final Duration SKEW = Duration.ofSeconds(1);
    /** How long after a boot the registry may still show the previous boot's verdict (a monitor round or two). */
    static final Duration ADMISSION_GRACE = Duration.ofSeconds(6);

    record Event(long seq, Instant at, String cvm, String vmUuid, String from, String to) {
    }

    /** An intent as the orchestrator recorded it; {@code effect} as in the table (UPDATE_COMPOSE, ...). */
    record Intent(String key, String slot, String effect, int attempts, Instant firstAt, String state, String procedure) {
        String kind() {
            return effect.startsWith("UPDATE_") ? "UPDATE" : effect;
        }
    }

    record CvmSeen(String name, String vmUuid, String instanceId, String status) {
    }

    record Row(String set, int ordinal, String instanceId, String status, Boolean healthy, Boolean attested,
               Instant attestedAt, Instant observedAt, Boolean ready, boolean fenced) {
    }

    record Sample(Instant at, List<CvmSeen> cvms, List<Row> rows) {
    }

    record Writes(String workload, int acknowledged, Set<Long> lost) {
    }

    /** The observations of one seed; {@code journal} from the very first event, so that states at the start are known. */
    record Observations(Instant from, List<Event> journal, Map<String, List<Instant>> crashes, List<Intent> intents,
                        List<Sample> samples, List<Writes> writes) {
    }

    /** The verdict: violations by invariant, and what was counted. */
    record Result(Map<String, List<String>> violations, Map<String, Integer> figures) {
        int count() {
            return violations.values().stream().mapToInt(List::size).sum();
        }
    }

    private final Map<String, List<String>> violations = new LinkedHashMap<>();
    private final Map<String, Integer> figures = new LinkedHashMap<>();

    private ChaosCheck() {
        for (String invariant : List.of("budget", "quorum", "effect applied twice", "effect without intent",
                "acknowledged write lost", "serving unattested", "identity reused")) {
            violations.put(invariant, new ArrayList<>());
        }
    }

    static Result check(Observations o) {
        ChaosCheck check = new ChaosCheck();
        check.downs(o);
        check.effects(o);
        check.writes(o);
        check.admissions(o);
        check.identities(o);
        return new Result(check.violations, check.figures);
    }

    // --- budget and quorum ------------------------------------------------------------------------------------------

    private enum Down { UP, OURS, FAULT }

    private static final Set<String> TAKEN_DOWN = Set.of("restarting", "updating", "stopping", "shutting_down", "deleting");

    private void downs(Observations o) {
        Map<String, Down> state = new HashMap<>();
        int takeDowns = 0;
        for (Event e : o.journal()) {
            ChaosFleet.Set set = ChaosFleet.of(e.cvm());
            if (set == null || leaving(set, e.cvm())) {
                continue;
            }
            Down before = state.getOrDefault(e.cvm(), e.from() == null ? Down.FAULT : Down.UP);
            Down after;
            if ("running".equals(e.to())) {
                after = Down.UP;
            } else if (before != Down.UP) {
                after = before; // down it was, down it stays, for the same cause
            } else if (TAKEN_DOWN.contains(e.to())) {
                after = Down.OURS;
            } else {
                after = Down.FAULT; // running to stopped at once: a crash
            }
            state.put(e.cvm(), after);
            if (before == Down.UP && after == Down.OURS && !e.at().isBefore(o.from())) {
                takeDowns++;
                int ours = count(state, set, Down.OURS);
                int faults = count(state, set, Down.FAULT);
                int allowed = set.budget(faults);
                if (ours > allowed) {
                    add("budget", String.format("%s %s: %s -> %s made %d slot(s) of %s down by our hand with %d down by a fault"
                            + " (budget %d): %s", e.at(), e.cvm(), e.from(), e.to(), ours, set.name(), faults, allowed, downs(state, set)));
                }
                if (set.quorum() && set.replicas() - ours - faults < set.majority()) {
                    add("quorum", String.format("%s %s: %s -> %s left %d of %d members of %s running (majority %d): %s",
                            e.at(), e.cvm(), e.from(), e.to(), set.replicas() - ours - faults, set.replicas(), set.name(),
                            set.majority(), downs(state, set)));
                }
            }
        }
        figures.put("slots taken down by the orchestrator", takeDowns);
    }

    /** The scale set's slots above its size come and go with the scale; they are never part of its quorum. */
    private static boolean leaving(ChaosFleet.Set set, String cvm) {
        return ChaosFleet.ordinal(cvm) >= set.replicas();
    }

    private static int count(Map<String, Down> state, ChaosFleet.Set set, Down which) {
        int n = 0;
        for (int i = 0; i < set.replicas(); i++) {
            if (state.getOrDefault(set.slot(i), Down.UP) == which) {
                n++;
            }
        }
        return n;
    }

    private static String downs(Map<String, Down> state, ChaosFleet.Set set) {
        Map<String, Down> of = new TreeMap<>();
        for (int i = 0; i < set.replicas(); i++) {
            of.put(set.slot(i), state.getOrDefault(set.slot(i), Down.UP));
        }
        return of.toString();
    }

    // --- effects ----------------------------------------------------------------------------------------------------

    /** The effect a status change shows starting, or null when it shows none (a settling, a crash). */
    static String effectOf(Event e) {
        if (e.from() == null) {
            return "CREATE";
        }
        return switch (e.to()) {
            case "restarting" -> "RESTART";
            case "updating" -> "UPDATE";
            case "stopping" -> "STOP";
            case "shutting_down" -> "SHUTDOWN";
            case "deleting" -> "DELETE";
            case "starting" -> "stopped".equals(e.from()) ? "START" : null;
            default -> null;
        };
    }

    private void effects(Observations o) {
        Map<String, List<Intent>> bySlotAndKind = new HashMap<>();
        for (Intent intent : o.intents()) {
            bySlotAndKind.computeIfAbsent(intent.slot() + "/" + intent.kind(), k -> new ArrayList<>()).add(intent);
        }
        bySlotAndKind.values().forEach(list -> list.sort(Comparator.comparing(Intent::firstAt)));
        Map<String, Integer> effectsOf = new HashMap<>();
        int seen = 0;
        for (Event e : o.journal()) {
            String kind = effectOf(e);
            if (kind == null || e.at().isBefore(o.from()) || ChaosFleet.of(e.cvm()) == null) {
                continue;
            }
            seen++;
            Intent owner = null;
            for (Intent intent : bySlotAndKind.getOrDefault(e.cvm() + "/" + kind, List.of())) {
                if (!intent.firstAt().isAfter(e.at().plus(SKEW))) {
                    owner = intent;
                }
            }
            if (owner == null) {
                add("effect without intent", e.at() + " " + e.cvm() + ": " + e.from() + " -> " + e.to() + " (" + kind
                        + ") with no intent of the orchestrator before it");
                continue;
            }
            int effects = effectsOf.merge(owner.key(), 1, Integer::sum);
            if (effects > owner.attempts()) {
                add("effect applied twice", e.at() + " " + e.cvm() + ": " + e.from() + " -> " + e.to() + " is effect " + effects
                        + " of intent " + owner.key() + " (" + owner.procedure() + "), which made " + owner.attempts() + " call(s)");
            }
        }
        figures.put("effects in the journal", seen);
        figures.put("intents", o.intents().size());
    }

    // --- writes, admissions, identities -----------------------------------------------------------------------------

    private void writes(Observations o) {
        for (Writes w : o.writes()) {
            figures.put("writes acknowledged (" + w.workload() + ")", w.acknowledged());
            w.lost().stream().sorted().limit(20).forEach(id -> add("acknowledged write lost", w.workload() + " write " + id));
            if (w.lost().size() > 20) {
                add("acknowledged write lost", w.workload() + ": " + (w.lost().size() - 20) + " more");
            }
        }
    }

    private void admissions(Observations o) {
        Map<String, TreeMap<Instant, Boolean>> boots = new HashMap<>();
        for (Event e : o.journal()) {
            boots.computeIfAbsent(e.cvm(), k -> new TreeMap<>()).put(e.at(), "running".equals(e.to()));
        }
        int judged = 0;
        for (Sample sample : o.samples()) {
            for (Row row : sample.rows()) {
                ChaosFleet.Set set = ChaosFleet.SETS.stream().filter(s -> s.name().equals(row.set())).findFirst().orElse(null);
                if (set == null || row.ordinal() >= set.replicas() || row.fenced() || !Boolean.TRUE.equals(row.healthy())
                        || !"running".equals(row.status()) || Boolean.FALSE.equals(row.ready())) {
                    continue;
                }
                Instant boot = bootBefore(boots.get(set.slot(row.ordinal())), sample.at());
                if (boot == null || sample.at().isBefore(boot.plus(ADMISSION_GRACE))
                        || row.observedAt() == null || row.observedAt().isBefore(boot)) {
                    continue;
                }
                judged++;
                boolean admitted = Boolean.TRUE.equals(row.attested()) && row.attestedAt() != null
                        && !row.attestedAt().isBefore(boot.minus(SKEW));
                if (!admitted) {
                    add("serving unattested", String.format("%s %s: healthy and ready for the boot of %s, attestation %s at %s",
                            sample.at(), set.slot(row.ordinal()), boot, row.attested(), row.attestedAt()));
                }
            }
        }
        figures.put("ready instances judged", judged);
    }

    /** When the boot the CVM is in at {@code at} began, or null when it is not running then. */
    private static Instant bootBefore(TreeMap<Instant, Boolean> changes, Instant at) {
        if (changes == null) {
            return null;
        }
        Map.Entry<Instant, Boolean> last = changes.floorEntry(at);
        return last != null && last.getValue() ? last.getKey() : null;
    }

    private void identities(Observations o) {
        Map<String, String> vmOfInstance = new HashMap<>();
        for (Sample sample : o.samples()) {
            for (CvmSeen cvm : sample.cvms()) {
                if (cvm.instanceId() == null || cvm.instanceId().isBlank()) {
                    continue;
                }
                String before = vmOfInstance.putIfAbsent(cvm.instanceId(), cvm.vmUuid());
                if (before != null && !before.equals(cvm.vmUuid())) {
                    add("identity reused", sample.at() + " instance " + cvm.instanceId() + " on CVM " + cvm.vmUuid()
                            + " (" + cvm.name() + ") was CVM " + before + "'s");
                }
            }
            Map<String, String> slotOfInstance = new HashMap<>();
            for (Row row : sample.rows()) {
                if (row.instanceId() == null) {
                    continue;
                }
                String slot = row.set() + "-" + row.ordinal();
                String other = slotOfInstance.putIfAbsent(row.set() + "/" + row.instanceId(), slot);
                if (other != null && !Objects.equals(other, slot)) {
                    add("identity reused", sample.at() + " instance " + row.instanceId() + " bound to both " + other + " and " + slot);
                }
            }
        }
        figures.put("identities seen", vmOfInstance.size());
    }

    private void add(String invariant, String what) {
        List<String> list = violations.get(invariant);
        if (list.size() < 50) {
            list.add(what);
        }
    }
}
