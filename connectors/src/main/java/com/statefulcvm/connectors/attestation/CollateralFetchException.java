package com.statefulcvm.connectors.attestation;

/** A collateral source could not deliver: transport failure, unexpected HTTP status or a malformed answer. */
public class CollateralFetchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CollateralFetchException(String message) {
        super(message);
    }

    public CollateralFetchException(String message, Throwable cause) {
        super(message, cause);
    }
}
