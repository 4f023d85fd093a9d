package com.statefulcvm.simulator.web;

/** Where the simulator serves its parts. */
public final class ApiPaths {

    /** The simulated Phala Cloud API; every path of the API reference is relative to it. */
    public static final String API = "/simulator/api/v1";
    /** {@code ANY /simulator/gateway/{instanceId}-{port}/**}. */
    public static final String GATEWAY = "/simulator/gateway";
    /** Test and demo controls, no API key. */
    public static final String ADMIN = "/simulator/_admin";

    private ApiPaths() {
    }
}
