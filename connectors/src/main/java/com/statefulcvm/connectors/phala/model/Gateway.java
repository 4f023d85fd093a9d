package com.statefulcvm.connectors.phala.model;

public record Gateway(String baseDomain, String cname) {
}
