package com.statefulcvm.web.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Whether the Phala Cloud API this deployment talks to is a simulator on this machine (the embedded one, or a
 * standalone one in a test) or the real service: what decides whether the simulator's test CA may ever be trusted.
 */
public final class PhalaTarget {

    private PhalaTarget() {
    }

    /** True when {@code baseUrl}'s host is a loopback address ({@code 127.0.0.1}, {@code ::1}, {@code localhost}). */
    public static boolean isLocal(String baseUrl) {
        if (baseUrl == null || baseUrl.isBlank()) {
            return false;
        }
        String host;
        try {
            host = URI.create(baseUrl.strip()).getHost();
        } catch (IllegalArgumentException unparsable) {
            return false;
        }
        if (host == null) {
            return false;
        }
        if ("localhost".equalsIgnoreCase(host)) {
            return true;
        }
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!literal.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            // a name: never resolved here (it could resolve anywhere later); only an address literal counts
            return false;
        }
        try {
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
