package com.statefulcvm.fleet.scaling;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a replica set is scaled ({@code scaling} in the fleet file, scale.bpmn): what a scale-down does with the removed
 * slots' CVMs, the fewest replicas the workload may have without an operator's approval, the most it may have, and,
 * for workloads whose new member must be announced to the cluster before it starts (etcd), the peer URL a new member
 * advertises. Mutable so that Spring Boot can bind it; {@link #problems} decides what makes sense.
 */
public class Scaling {

    /** The placeholders a peer URL template may use. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");
    private static final List<String> PLACEHOLDERS = List.of("name", "ordinal", "set");

    private ScaleDownPolicy scaleDown = ScaleDownPolicy.RETAIN;
    /** Null: the workload type's default ({@link #minReplicasOr}). */
    private Integer minReplicas;
    /** Null: twice the fleet file's replicas, at least 10 ({@link #maxReplicasFor}). */
    private Integer maxReplicas;
    /** etcd: the peer URL a new member advertises, e.g. {@code https://{name}.peers.internal:2380}. */
    private String peerUrlTemplate;
    /** etcd: explicit peer URLs by ordinal; wins over the template for its ordinals. */
    private Map<String, String> peerUrls = new LinkedHashMap<>();

    /**
     * The fewest replicas a set may be scaled down to without an approval: what its workload needs to keep a quorum
     * through the loss of one member, as its type declares ({@code WorkloadType#getMinReplicas}: raft clusters need 3,
     * 2 of 3 still decide; Patroni a leader and one replica to fail over to), unless the set says otherwise.
     */
    public int minReplicasOr(int typeMinimum) {
        return minReplicas != null ? minReplicas : typeMinimum;
    }

    /**
     * The most replicas a scale may ask for: the explicit {@code maxReplicas}, else twice the fleet file's count and at
     * least 10, never above {@code limit} (the fleet's own limit).
     */
    public int maxReplicasFor(int fileReplicas, int limit) {
        return Math.min(maxReplicas != null ? maxReplicas : Math.max(10, 2 * fileReplicas), limit);
    }

    /** The peer URL of the member in {@code <set>-<ordinal>}: the explicit one, else the template's, else empty. */
    public Optional<String> peerUrl(String set, int ordinal) {
        String explicit = peerUrls == null ? null : peerUrls.get(Integer.toString(ordinal));
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(explicit.strip());
        }
        if (peerUrlTemplate == null || peerUrlTemplate.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(peerUrlTemplate.strip().replace("{name}", set + "-" + ordinal)
                .replace("{ordinal}", Integer.toString(ordinal)).replace("{set}", set));
    }

    /** Every problem as {@code scaling.<field>: problem}. */
    public static List<String> problems(Scaling scaling, int replicas, int maxAllowed) {
        List<String> problems = new ArrayList<>();
        if (scaling == null) {
            problems.add("scaling: is required");
            return problems;
        }
        if (scaling.scaleDown == null) {
            problems.add("scaling.scaleDown: is required: retain or delete");
        }
        if (scaling.minReplicas != null && scaling.minReplicas < 1) {
            problems.add("scaling.minReplicas: must be at least 1 (was " + scaling.minReplicas + ")");
        }
        if (scaling.maxReplicas != null && (scaling.maxReplicas < 1 || scaling.maxReplicas > maxAllowed)) {
            problems.add("scaling.maxReplicas: must be between 1 and " + maxAllowed + " (was " + scaling.maxReplicas + ")");
        } else if (scaling.maxReplicas != null && scaling.maxReplicas < replicas) {
            problems.add("scaling.maxReplicas: must not be below replicas (" + replicas + ") (was " + scaling.maxReplicas + ")");
        }
        if (scaling.minReplicas != null && scaling.minReplicas > replicas) {
            problems.add("scaling.minReplicas: must not exceed replicas (" + replicas + ") (was " + scaling.minReplicas + ")");
        }
        if (scaling.peerUrlTemplate != null && !scaling.peerUrlTemplate.isBlank()) {
            urlProblem(scaling.peerUrlTemplate.replaceAll("\\{[A-Za-z]+}", "x"))
                    .ifPresent(p -> problems.add("scaling.peerUrlTemplate: " + p + " (was '" + scaling.peerUrlTemplate + "')"));
            Matcher m = PLACEHOLDER.matcher(scaling.peerUrlTemplate);
            while (m.find()) {
                if (!PLACEHOLDERS.contains(m.group(1))) {
                    problems.add("scaling.peerUrlTemplate: unknown placeholder {" + m.group(1) + "}; known: {name}, {ordinal}, {set}");
                }
            }
        }
        if (scaling.peerUrls != null) {
            int max = scaling.maxReplicasFor(replicas, maxAllowed);
            scaling.peerUrls.forEach((ordinal, url) -> {
                if (!ordinal.matches("\\d{1,3}") || Integer.parseInt(ordinal) >= max) {
                    problems.add("scaling.peerUrls." + ordinal + ": the key must be an ordinal from 0 to " + (max - 1)
                            + " (below the most replicas a scale may ask for, " + max + ")");
                }
                urlProblem(url).ifPresent(p -> problems.add("scaling.peerUrls." + ordinal + ": " + p + " (was '" + url + "')"));
            });
        }
        return problems;
    }

    private static Optional<String> urlProblem(String url) {
        try {
            URI uri = url == null ? null : new URI(url.strip());
            if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                return Optional.of("must be an http or https URL with a host");
            }
            return Optional.empty();
        } catch (java.net.URISyntaxException e) {
            return Optional.of("must be an http or https URL with a host");
        }
    }

    public ScaleDownPolicy getScaleDown() { return scaleDown; }
    public void setScaleDown(ScaleDownPolicy scaleDown) { this.scaleDown = scaleDown; }
    public Integer getMinReplicas() { return minReplicas; }
    public void setMinReplicas(Integer minReplicas) { this.minReplicas = minReplicas; }
    public Integer getMaxReplicas() { return maxReplicas; }
    public void setMaxReplicas(Integer maxReplicas) { this.maxReplicas = maxReplicas; }
    public String getPeerUrlTemplate() { return peerUrlTemplate; }
    public void setPeerUrlTemplate(String peerUrlTemplate) { this.peerUrlTemplate = peerUrlTemplate; }
    public Map<String, String> getPeerUrls() { return peerUrls; }
    public void setPeerUrls(Map<String, String> peerUrls) { this.peerUrls = peerUrls; }
}
