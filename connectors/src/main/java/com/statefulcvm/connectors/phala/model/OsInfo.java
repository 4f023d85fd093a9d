package com.statefulcvm.connectors.phala.model;

public record OsInfo(String name, String version, Boolean isDev, String osImageHash) {
}
