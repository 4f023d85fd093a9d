package com.statefulcvm.connectors.attestation;

/** The quote bytes are not a TDX DCAP quote this verifier understands; the message names the field. */
public class QuoteFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public QuoteFormatException(String message) {
        super(message);
    }
}
