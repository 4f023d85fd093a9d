package com.statefulcvm.connectors.phala.model;

/** An app-level (load-balanced) URL and the URL of exactly one instance. */
public record UrlPair(String app, String instance) {
}
