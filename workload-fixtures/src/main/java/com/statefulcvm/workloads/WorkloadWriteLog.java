package com.statefulcvm.workloads;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a workload writer saw: every acknowledged write (its id and when the acknowledgement came) and the failed
 * attempts. The longest gap between acknowledged writes is the availability the clients of the workload felt.
 */
public final class WorkloadWriteLog {

    public record Write(long id, Instant at) {
    }

    /** The longest stretch without an acknowledged write, from {@code from} to {@code to}. */
    public record Gap(Instant from, Instant to) {
        public Duration length() {
            return Duration.between(from, to);
        }

        @Override
        public String toString() {
            return length().toMillis() + " ms (" + from + " .. " + to + ")";
        }
    }

    private final List<Write> acknowledged = new ArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    private final List<String> lastFailures = new ArrayList<>();

    public synchronized void acknowledged(long id, Instant at) {
        acknowledged.add(new Write(id, at));
    }

    synchronized void failed(String why) {
        failures.incrementAndGet();
        lastFailures.add(Instant.now() + " " + why);
        if (lastFailures.size() > 10) {
            lastFailures.remove(0);
        }
    }

    public synchronized List<Write> acknowledged() {
        return List.copyOf(acknowledged);
    }

    public synchronized int count() {
        return acknowledged.size();
    }

    public long failures() {
        return failures.get();
    }

    public synchronized List<String> lastFailures() {
        return List.copyOf(lastFailures);
    }

    /**
     * The longest stretch between {@code from} and {@code to} without an acknowledged write: between two consecutive
     * acknowledgements, or from {@code from} to the first one, or from the last one to {@code to}.
     */
    public synchronized Gap longestGap(Instant from, Instant to) {
        Instant previous = from;
        Gap longest = new Gap(from, from);
        for (Write write : acknowledged) {
            if (write.at().isBefore(from)) {
                continue;
            }
            Instant at = write.at().isAfter(to) ? to : write.at();
            if (Duration.between(previous, at).compareTo(longest.length()) > 0) {
                longest = new Gap(previous, at);
            }
            previous = at;
            if (!write.at().isBefore(to)) {
                return longest;
            }
        }
        if (Duration.between(previous, to).compareTo(longest.length()) > 0) {
            longest = new Gap(previous, to);
        }
        return longest;
    }
}
