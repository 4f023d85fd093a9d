package com.statefulcvm.connectors.phala.model;

public record EventLogEntry(Integer imr, Long eventType, String digest, String event, String eventPayload) {
}
