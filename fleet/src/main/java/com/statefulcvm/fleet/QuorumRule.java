package com.statefulcvm.fleet;

import java.util.Locale;

/**
 * How many members of a set must serve for it to serve: {@code majority} (a raft store: etcd, Consul), {@code all}
 * (every member, as a synchronous cluster that stops when one is missing), {@code one} (any member serves: Patroni's
 * leader, a stateless set) or a number (never more than the members).
 */
public record QuorumRule(Kind kind, int count) {

    public enum Kind { MAJORITY, ALL, ONE, COUNT }

    public static final QuorumRule MAJORITY = new QuorumRule(Kind.MAJORITY, 0);
    public static final QuorumRule ALL = new QuorumRule(Kind.ALL, 0);
    public static final QuorumRule ONE = new QuorumRule(Kind.ONE, 0);

    /** @throws IllegalArgumentException naming what is accepted */
    public static QuorumRule parse(String text) {
        String rule = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        switch (rule) {
            case "majority":
                return MAJORITY;
            case "all":
                return ALL;
            case "one":
                return ONE;
            default:
                try {
                    int count = Integer.parseInt(rule);
                    if (count >= 1) {
                        return new QuorumRule(Kind.COUNT, count);
                    }
                } catch (NumberFormatException notANumber) {
                    // said below
                }
                throw new IllegalArgumentException("must be majority, all, one or a number of members from 1 (was '" + text + "')");
        }
    }

    /** The members that must serve out of {@code members}. */
    public int of(int members) {
        if (members <= 0) {
            return 0;
        }
        return switch (kind) {
            case MAJORITY -> members / 2 + 1;
            case ALL -> members;
            case ONE -> 1;
            case COUNT -> Math.min(count, members);
        };
    }

    @Override
    public String toString() {
        return kind == Kind.COUNT ? Integer.toString(count) : kind.name().toLowerCase(Locale.ROOT);
    }
}
