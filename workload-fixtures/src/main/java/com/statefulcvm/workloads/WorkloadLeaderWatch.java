package com.statefulcvm.workloads;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Asks the workload itself who leads, every 50 ms, straight at the processes' own ports (not through the simulator),
 * and keeps every change with its time: an independent account of when leadership moved.
 */
public final class WorkloadLeaderWatch implements AutoCloseable {

    /** From {@code at} on, {@code leader} led ({@code null}: nobody answered as the leader). */
    public record Change(Instant at, String leader) {
    }

    private final Supplier<String> probe;
    private final List<Change> changes = new ArrayList<>();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "leader-watch");
        thread.setDaemon(true);
        return thread;
    });

    public WorkloadLeaderWatch(Supplier<String> probe) {
        this.probe = probe;
    }

    public void start() {
        executor.scheduleWithFixedDelay(this::look, 0, 50, TimeUnit.MILLISECONDS);
    }

    private void look() {
        String leader;
        try {
            leader = probe.get();
        } catch (RuntimeException e) {
            leader = null;
        }
        synchronized (this) {
            if (changes.isEmpty() || !Objects.equals(changes.get(changes.size() - 1).leader(), leader)) {
                changes.add(new Change(Instant.now(), leader));
            }
        }
    }

    public synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    synchronized String current() {
        return changes.isEmpty() ? null : changes.get(changes.size() - 1).leader();
    }

    /** The first moment after {@code after} at which a member other than {@code leader} was seen leading. */
    public synchronized Optional<Instant> firstOtherLeader(String leader, Instant after) {
        return changes.stream().filter(c -> !c.at().isBefore(after))
                .filter(c -> c.leader() != null && !c.leader().equals(leader))
                .map(Change::at).findFirst();
    }

    /** Who was last seen leading at {@code at} (null: nobody, or nothing seen yet). */
    public synchronized String leaderAt(Instant at) {
        String leader = null;
        for (Change change : changes) {
            if (change.at().isAfter(at)) {
                break;
            }
            leader = change.leader();
        }
        return leader;
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdown();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
