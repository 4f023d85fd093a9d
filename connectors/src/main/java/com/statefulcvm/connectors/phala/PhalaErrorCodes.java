package com.statefulcvm.connectors.phala;

/** The structured {@code error_code} values the orchestrator reacts to. */
public final class PhalaErrorCodes {

    public static final String DUPLICATE_CVM_NAME = "ERR-01-004";
    public static final String INSUFFICIENT_SLOTS = "ERR-02-005";
    public static final String QUOTA_EXCEEDED = "ERR-02-015";
    public static final String CVM_NOT_FOUND = "ERR-03-001";
    public static final String INSUFFICIENT_BALANCE = "ERR-04-001";

    private PhalaErrorCodes() {
    }
}
