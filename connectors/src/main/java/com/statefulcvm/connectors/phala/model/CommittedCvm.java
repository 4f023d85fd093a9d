package com.statefulcvm.connectors.phala.model;

public record CommittedCvm(String id, String name, String status) {
}
