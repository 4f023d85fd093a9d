package com.statefulcvm.fleet.adoption;

import com.statefulcvm.fleet.ComposeText;
import com.statefulcvm.fleet.Slots;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What adopting a set would accept, decided from what its app's CVMs run: which CVM fills which slot, the compose the
 * set's first revision takes (the one most slots run, the lowest ordinal's on a tie: the next rollout converges the
 * others), the slots that run another compose, those whose evidence would be refused (accepted only as kept running,
 * unadmitted), and what keeps an approver from accepting at all.
 */
public record AdoptionSurvey(String replicaSet, int replicas, Map<Integer, SurveyedCvm> slots, List<SurveyedCvm> unmapped,
                             List<String> blockers, String firstCompose, List<Integer> mixed, List<Integer> refused,
                             List<Integer> empty) {

    public static AdoptionSurvey of(String replicaSet, int replicas, List<SurveyedCvm> cvms) {
        Map<Integer, SurveyedCvm> slots = new TreeMap<>();
        List<SurveyedCvm> unmapped = new ArrayList<>();
        List<String> blockers = new ArrayList<>();
        for (SurveyedCvm cvm : cvms) {
            if (cvm.ordinal() == null) {
                unmapped.add(cvm);
            } else if (slots.containsKey(cvm.ordinal())) {
                blockers.add(Slots.name(replicaSet, cvm.ordinal()) + " is filled by two CVMs, " + slots.get(cvm.ordinal()).name()
                        + " and " + cvm.name() + ": map one of them elsewhere in the fleet file's members:");
            } else {
                slots.put(cvm.ordinal(), cvm);
            }
        }
        if (slots.isEmpty()) {
            blockers.add("no CVM of the app fills a slot of " + replicaSet + " (named " + replicaSet + "-<ordinal>, or mapped"
                    + " in the fleet file's members:)" + (unmapped.isEmpty() ? "" : "; the app runs "
                    + String.join(", ", unmapped.stream().map(SurveyedCvm::name).toList())));
        }
        // the compose most slots run: ties go to the one the lowest ordinal runs (slots is ordered by ordinal)
        Map<String, List<Integer>> byDigest = new LinkedHashMap<>();
        Map<String, String> composeOf = new LinkedHashMap<>();
        slots.forEach((ordinal, cvm) -> {
            if (cvm.dockerCompose() != null) {
                String digest = ComposeText.digest(cvm.dockerCompose());
                byDigest.computeIfAbsent(digest, d -> new ArrayList<>()).add(ordinal);
                composeOf.putIfAbsent(digest, cvm.dockerCompose());
            }
        });
        Optional<String> first = byDigest.entrySet().stream()
                .max(Comparator.<Map.Entry<String, List<Integer>>>comparingInt(e -> e.getValue().size())
                        .thenComparing(e -> -e.getValue().get(0)))
                .map(Map.Entry::getKey);
        if (first.isEmpty() && !slots.isEmpty()) {
            blockers.add("no CVM of " + replicaSet + " publishes the compose it runs: there is nothing to take as its first revision");
        }
        List<Integer> mixed = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        slots.forEach((ordinal, cvm) -> {
            if (first.isPresent() && (cvm.dockerCompose() == null || !ComposeText.digest(cvm.dockerCompose()).equals(first.get()))) {
                mixed.add(ordinal);
            }
            if (cvm.refused()) {
                refused.add(ordinal);
            }
        });
        TreeSet<Integer> empty = new TreeSet<>();
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            if (!slots.containsKey(ordinal)) {
                empty.add(ordinal);
            }
        }
        return new AdoptionSurvey(replicaSet, replicas, slots, unmapped, blockers, first.map(composeOf::get).orElse(null), mixed,
                refused, List.copyOf(empty));
    }

    /** Each filled slot's name to the compose hash its CVM reported: what an approval accepts, compared before recording. */
    public Map<String, String> composeHashesBySlot() {
        Map<String, String> out = new LinkedHashMap<>();
        slots.forEach((ordinal, cvm) -> out.put(Slots.name(replicaSet, ordinal), String.valueOf(cvm.composeHash())));
        return out;
    }

    public boolean acceptable() {
        return blockers.isEmpty();
    }

    /** The report an approver reads: one paragraph per slot, then what fills none, then the outcome. */
    public String report() {
        StringBuilder out = new StringBuilder();
        slots.forEach((ordinal, cvm) -> {
            out.append(Slots.name(replicaSet, ordinal)).append(" <- CVM ").append(cvm.name());
            if (cvm.id() != null) {
                out.append(" (id ").append(cvm.id()).append(')');
            }
            out.append(": ").append(cvm.status());
            out.append(mixed.contains(ordinal) ? ", runs another compose than the first revision" : ", runs the first revision's compose");
            out.append("\n    compose hash ").append(orNone(cvm.composeHash()))
                    .append("; env keys ").append(cvm.envKeys() == null || cvm.envKeys().isEmpty() ? "(none)" : String.join(", ", cvm.envKeys()))
                    .append("\n    node ").append(orNone(cvm.node())).append(", instance type ").append(orNone(cvm.instanceType()))
                    .append(", image ").append(orNone(cvm.image()))
                    .append("\n    health: ").append(cvm.healthy() == null ? "not probed" : cvm.healthy() ? "healthy" : "unhealthy")
                    .append(cvm.health() == null ? "" : " (" + cvm.health() + ")")
                    .append("\n    attestation: ").append(cvm.admitted() == null ? "not asked by the set's policy"
                            : cvm.admitted() ? "would be admitted" : "would be REFUSED: " + cvm.admission()
                            + " (accepted only as kept running, unadmitted: nothing stops it)");
            if (cvm.sequence() != null) {
                out.append("\n    sequence number: ").append(cvm.sequence());
            }
            out.append('\n');
        });
        for (SurveyedCvm cvm : unmapped) {
            out.append("CVM ").append(cvm.name()).append(" fills no slot: it is left alone (map it in the fleet file's members: to adopt it)\n");
        }
        for (int ordinal : empty) {
            out.append(Slots.name(replicaSet, ordinal)).append(": no CVM (a heal, once adopted, may create one after its approval)\n");
        }
        return out.toString().stripTrailing();
    }

    /** One line: what an approval accepts, or why it cannot. */
    public String summary() {
        if (!acceptable()) {
            return "cannot be adopted: " + String.join("; ", blockers);
        }
        return slots.size() + " of " + replicas + " slots filled" + (mixed.isEmpty() ? ", all on one compose"
                : ", " + mixed.size() + " on another compose (" + names(mixed) + ": the next rollout converges them)")
                + (refused.isEmpty() ? "" : ", " + refused.size() + " would be refused (" + names(refused) + ": kept running, unadmitted)")
                + (unmapped.isEmpty() ? "" : ", " + unmapped.size() + " CVM(s) of the app fill no slot");
    }

    public List<String> slotNames(List<Integer> ordinals) {
        return ordinals.stream().map(o -> Slots.name(replicaSet, o)).toList();
    }

    private String names(List<Integer> ordinals) {
        return String.join(", ", slotNames(ordinals));
    }

    private static String orNone(String value) {
        return value == null || value.isBlank() ? "(unknown)" : value;
    }
}
