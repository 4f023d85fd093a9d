package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * DCAP collateral for a TDX quote, in the JSON shape dcap-qvl and PCCS clients use (snake_case keys).
 *
 * @param tcbInfo               the TCB info JSON exactly as Intel signed it (the signature covers these bytes)
 * @param tcbInfoSignature      hex, raw r || s
 * @param tcbInfoIssuerChain    PEM, TCB signing certificate first
 * @param qeIdentity            the QE identity JSON exactly as signed
 * @param qeIdentitySignature   hex, raw r || s
 * @param qeIdentityIssuerChain PEM
 * @param pckCrl                hex of the DER CRL of the CA that issued the PCK certificate
 * @param rootCaCrl             hex of the DER CRL of the Intel SGX Root CA
 * @param pckCrlIssuerChain     PEM, the PCK CRL's issuer first
 */
public record Collateral(
        String tcbInfo,
        String tcbInfoSignature,
        String tcbInfoIssuerChain,
        String qeIdentity,
        String qeIdentitySignature,
        String qeIdentityIssuerChain,
        String pckCrl,
        String rootCaCrl,
        String pckCrlIssuerChain) {

    public Collateral {
        java.util.Objects.requireNonNull(tcbInfo, "tcbInfo");
        java.util.Objects.requireNonNull(tcbInfoSignature, "tcbInfoSignature");
        java.util.Objects.requireNonNull(tcbInfoIssuerChain, "tcbInfoIssuerChain");
        java.util.Objects.requireNonNull(qeIdentity, "qeIdentity");
        java.util.Objects.requireNonNull(qeIdentitySignature, "qeIdentitySignature");
        java.util.Objects.requireNonNull(qeIdentityIssuerChain, "qeIdentityIssuerChain");
        java.util.Objects.requireNonNull(pckCrl, "pckCrl");
        java.util.Objects.requireNonNull(rootCaCrl, "rootCaCrl");
        java.util.Objects.requireNonNull(pckCrlIssuerChain, "pckCrlIssuerChain");
    }

    /**
     * Reads the shape of {@code dcap-tdx-quote-collateral.json}.
     *
     * @throws EvidenceFormatException naming the missing or malformed field
     */
    public static Collateral fromJson(String json) {
        return fromNode(AttestationJson.parseObject(json, "collateral"), "");
    }

    static Collateral fromNode(JsonNode node, String prefix) {
        if (!node.isObject()) {
            throw new EvidenceFormatException(prefix.isEmpty() ? "collateral" : prefix.substring(0,
                    prefix.length() - 1), "not a JSON object");
        }
        return new Collateral(
                AttestationJson.jsonText(node, "tcb_info", prefix, true),
                AttestationJson.hexField(node, "tcb_info_signature", prefix),
                AttestationJson.requiredText(node, "tcb_info_issuer_chain", prefix),
                AttestationJson.jsonText(node, "qe_identity", prefix, true),
                AttestationJson.hexField(node, "qe_identity_signature", prefix),
                AttestationJson.requiredText(node, "qe_identity_issuer_chain", prefix),
                AttestationJson.hexField(node, "pck_crl", prefix),
                AttestationJson.hexField(node, "root_ca_crl", prefix),
                AttestationJson.requiredText(node, "pck_crl_issuer_chain", prefix));
    }

    /** The same snake_case shape {@link #fromJson} reads. */
    public String toJson() {
        ObjectNode node = AttestationJson.MAPPER.createObjectNode();
        node.put("tcb_info", tcbInfo);
        node.put("tcb_info_signature", tcbInfoSignature);
        node.put("tcb_info_issuer_chain", tcbInfoIssuerChain);
        node.put("qe_identity", qeIdentity);
        node.put("qe_identity_signature", qeIdentitySignature);
        node.put("qe_identity_issuer_chain", qeIdentityIssuerChain);
        node.put("pck_crl", pckCrl);
        node.put("root_ca_crl", rootCaCrl);
        node.put("pck_crl_issuer_chain", pckCrlIssuerChain);
        return node.toString();
    }
}
