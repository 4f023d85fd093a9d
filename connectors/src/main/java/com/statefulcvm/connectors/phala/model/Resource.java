package com.statefulcvm.connectors.phala.model;

/** SDK {@code CvmResourceInfoV20260121Schema}: {@code memory_in_gb} is a number, not necessarily whole. */
public record Resource(String instanceType, Integer vcpu, Double memoryInGb, Integer diskInGb) {
}
