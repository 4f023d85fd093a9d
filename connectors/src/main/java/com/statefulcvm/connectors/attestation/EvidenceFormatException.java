package com.statefulcvm.connectors.attestation;

/** Evidence or collateral input that cannot even be read; {@link #field()} names the offending JSON field. */
public class EvidenceFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public EvidenceFormatException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
