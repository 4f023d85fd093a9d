package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a CVM hands over to prove itself: the raw TDX quote, the event log (JSON array text, as the dstack guest agent
 * returns it), the VM config JSON text, and optionally the DCAP collateral to check the quote against.
 *
 * @param quote        the raw quote bytes; required
 * @param eventLogJson the event log as JSON text, or null when the evidence has none (a bare DCAP quote)
 * @param vmConfigJson dstack's {@code vm_config} JSON text, or null; carried for remote verifiers, not checked locally
 * @param collateral   the collateral, or null to use the {@link VerifyOptions#collateralSource()}
 */
public record Evidence(byte[] quote, String eventLogJson, String vmConfigJson, Collateral collateral) {

    public Evidence {
        Objects.requireNonNull(quote, "quote");
        quote = quote.clone();
    }

    @Override
    public byte[] quote() {
        return quote.clone();
    }

    public Evidence withCollateral(Collateral newCollateral) {
        return new Evidence(quote, eventLogJson, vmConfigJson, newCollateral);
    }

    /**
     * Reads the dstack guest agent's GetQuote answer {@code {quote (hex), event_log (JSON text), report_data,
     * vm_config}}. An optional {@code collateral} object in the same shape as {@link Collateral#fromJson} is taken too,
     * so that a REST body can carry both.
     *
     * @throws EvidenceFormatException naming the field that is missing or malformed
     */
    public static Evidence fromGetQuoteJson(String json) {
        JsonNode root = AttestationJson.parseObject(json, "evidence");
        String quoteHex = AttestationJson.requiredText(root, "quote", "");
        byte[] quote;
        try {
            quote = Bytes.unhex(quoteHex);
        } catch (IllegalArgumentException e) {
            throw new EvidenceFormatException("quote", "not hex (" + e.getMessage() + ")");
        }
        if (quote.length == 0) {
            throw new EvidenceFormatException("quote", "empty");
        }
        String eventLog = AttestationJson.jsonText(root, "event_log", "", false);
        if (eventLog != null) {
            try {
                if (!AttestationJson.MAPPER.readTree(eventLog).isArray()) {
                    throw new EvidenceFormatException("event_log", "not a JSON array");
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new EvidenceFormatException("event_log", "not valid JSON (" + e.getOriginalMessage() + ")");
            }
        }
        String vmConfig = AttestationJson.jsonText(root, "vm_config", "", false);
        JsonNode collateralNode = root.get("collateral");
        Collateral collateral = collateralNode == null || collateralNode.isNull() ? null
                : Collateral.fromNode(collateralNode, "collateral.");
        return new Evidence(quote, eventLog, vmConfig, collateral);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Evidence other && Arrays.equals(quote, other.quote)
                && Objects.equals(eventLogJson, other.eventLogJson) && Objects.equals(vmConfigJson, other.vmConfigJson)
                && Objects.equals(collateral, other.collateral);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(quote), eventLogJson, vmConfigJson, collateral);
    }

    @Override
    public String toString() {
        return "Evidence[quote=" + quote.length + " bytes, eventLog=" + (eventLogJson == null ? "none" : "present")
                + ", vmConfig=" + (vmConfigJson == null ? "none" : "present")
                + ", collateral=" + (collateral == null ? "none" : "present") + "]";
    }
}
