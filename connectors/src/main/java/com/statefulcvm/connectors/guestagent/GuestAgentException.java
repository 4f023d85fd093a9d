package com.statefulcvm.connectors.guestagent;

/** No evidence could be had from a CVM's guest agent; the CVM is then not admitted, never assumed honest. */
public class GuestAgentException extends RuntimeException {

    public GuestAgentException(String message) {
        super(message);
    }

    public GuestAgentException(String message, Throwable cause) {
        super(message, cause);
    }
}
