package com.statefulcvm.connectors.phala.model;

/** {@code id} is a String because the API has sent it both as a number and as a string; Jackson coerces either. */
public record NodeInfo(String id, String name, String region, String status) {
}
