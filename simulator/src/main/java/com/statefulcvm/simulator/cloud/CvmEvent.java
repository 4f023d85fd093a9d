package com.statefulcvm.simulator.cloud;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One status change of one CVM. {@code cvm} is its name, {@code at} an ISO-8601 instant, {@code from} null when the
 * CVM is created, {@code to} "deleted" when it is removed.
 */
@JsonNaming(PropertyNamingStrategies.LowerCamelCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CvmEvent(long seq, String at, String cvm, String vmUuid, String from, String to) {
}
