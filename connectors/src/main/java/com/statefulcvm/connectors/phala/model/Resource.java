package com.statefulcvm.connectors.phala.model;

public record Resource(String instanceType, Integer vcpu, Integer memoryInGb, Integer diskInGb) {
}
