package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.PhalaApiException;

/**
 * A call not made: the circuit is open, Phala Cloud has not answered the calls before it ({@link PhalaCircuit}). A
 * 503 to whoever catches {@link PhalaApiException}, with nothing sent.
 */
public class PhalaUnreachable extends PhalaApiException {

    public PhalaUnreachable(String operation, String why) {
        super(503, null, why, null, "-", operation, null);
    }
}
