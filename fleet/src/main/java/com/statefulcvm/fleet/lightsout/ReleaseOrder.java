package com.statefulcvm.fleet.lightsout;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a held-back member is told when a lights-out recovery releases it: whether it is the seed (it starts the
 * cluster from its own data: Galera's bootstrap, etcd's new cluster) or a follower, and the members already released
 * and serving, which a follower joins (Galera's {@code wsrep_cluster_address=gcomm://...}, etcd's initial cluster).
 * The seed's quorum partners are released with it, before its health gate, so each is told only the seed; a follower
 * is told the seed, the partners and the followers released before it that joined.
 *
 * @param role      {@code seed} or {@code follower}
 * @param primaries the members released and serving before this one, in the order they were released
 */
public record ReleaseOrder(String member, String role, String seed, List<String> primaries) {

    public static final String SEED = "seed";
    public static final String FOLLOWER = "follower";

    public ReleaseOrder {
        primaries = List.copyOf(primaries);
    }

    /**
     * @param partners  the seed's quorum partners, released with it
     * @param followers the followers in the order they join
     * @param notJoined followers that were released but did not join (never given as a primary)
     */
    public static ReleaseOrder of(String member, String seed, List<String> partners, List<String> followers, Map<String, ?> notJoined) {
        if (member.equals(seed)) {
            return new ReleaseOrder(member, SEED, seed, List.of());
        }
        Set<String> serving = new LinkedHashSet<>();
        serving.add(seed);
        if (partners.contains(member)) {
            return new ReleaseOrder(member, FOLLOWER, seed, new ArrayList<>(serving));
        }
        serving.addAll(partners);
        for (String follower : followers) {
            if (follower.equals(member)) {
                break;
            }
            if (!notJoined.containsKey(follower)) {
                serving.add(follower);
            }
        }
        serving.remove(member);
        return new ReleaseOrder(member, FOLLOWER, seed, new ArrayList<>(serving));
    }

    /** "seed" or "follower of kv-1, joining kv-1, kv-2": for the step's answer. */
    public String describe() {
        return SEED.equals(role) ? "the seed" : "a follower of " + seed + ", joining " + String.join(", ", primaries);
    }
}
