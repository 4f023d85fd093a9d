package com.statefulcvm.fleet.budget;

/**
 * Whether one slot of a set serves now, as the disruption budget counts it: {@code down} with why (no CVM, a CVM that
 * is not running, failing health checks, fenced, taken down by one of our procedures), or up.
 */
public record SlotAvailability(int ordinal, String slot, boolean down, String why) {

    public static SlotAvailability up(int ordinal, String slot) {
        return new SlotAvailability(ordinal, slot, false, "serving");
    }

    public static SlotAvailability down(int ordinal, String slot, String why) {
        return new SlotAvailability(ordinal, slot, true, why);
    }
}
