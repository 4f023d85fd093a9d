package com.statefulcvm.simulator.cloud;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Every status change of every CVM, in order, numbered from 1. Thread-safe. */
public final class EventJournal {

    private final List<CvmEvent> events = new ArrayList<>();
    private long lastSeq;

    synchronized CvmEvent record(Instant at, String cvm, String vmUuid, String from, String to) {
        CvmEvent event = new CvmEvent(++lastSeq, at.toString(), cvm, vmUuid, from, to);
        events.add(event);
        return event;
    }

    /** The events with a sequence number greater than {@code seq} (all of them for 0). */
    public synchronized List<CvmEvent> since(long seq) {
        return events.stream().filter(e -> e.seq() > seq).toList();
    }

    synchronized long lastSeq() {
        return lastSeq;
    }

    synchronized void restore(List<CvmEvent> saved, long savedLastSeq) {
        events.clear();
        events.addAll(saved);
        lastSeq = Math.max(savedLastSeq, saved.isEmpty() ? 0 : saved.get(saved.size() - 1).seq());
    }

    synchronized void clear() {
        events.clear();
        lastSeq = 0;
    }
}
