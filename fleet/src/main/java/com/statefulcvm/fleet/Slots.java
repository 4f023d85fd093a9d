package com.statefulcvm.fleet;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A slot is a named CVM of an app, {@code <set>-<ordinal>}; the ordinal is the slot's stable identity. */
public final class Slots {

    private static final Pattern SUFFIX = Pattern.compile("-(\\d+)$");

    private Slots() {
    }

    public static String name(String replicaSet, int ordinal) {
        return replicaSet + "-" + ordinal;
    }

    /** The ordinal of a CVM name that belongs to the set, or empty for a CVM that is not one of its slots. */
    public static OptionalInt ordinalOf(String replicaSet, String cvmName) {
        if (cvmName == null || !cvmName.startsWith(replicaSet + "-")) {
            return OptionalInt.empty();
        }
        Matcher m = SUFFIX.matcher(cvmName);
        if (!m.find() || m.start() != replicaSet.length()) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(m.group(1)));
        } catch (NumberFormatException tooLarge) {
            return OptionalInt.empty();
        }
    }
}
