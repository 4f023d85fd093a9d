package com.statefulcvm.connectors.phala.model;

/**
 * SDK {@code NodeRefSchema}: the node's {@code id} (an integer; a String here because Jackson coerces a number or a
 * string alike), its TDX {@code device_id} (what an on-chain KMS app's contract must allow).
 */
public record NodeInfo(String id, String name, String region, String status, String deviceId) {
}
