package com.statefulcvm.connectors.phala.model;

/** The operation a CVM is moving towards; an empty {@code target} means none. */
public record Progress(String target, String startedAt, String correlationId) {
}
