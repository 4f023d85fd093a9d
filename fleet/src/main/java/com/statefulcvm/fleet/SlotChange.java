package com.statefulcvm.fleet;

import java.time.Instant;

/** What we knew of a slot from {@code at} on, until its next change: its CVM's status, its health, its admission. */
public record SlotChange(int ordinal, Instant at, String status, Boolean healthy, Boolean attested) {
}
