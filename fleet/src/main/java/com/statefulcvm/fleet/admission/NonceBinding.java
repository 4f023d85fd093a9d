package com.statefulcvm.fleet.admission;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fresh evidence as the dstack mesh asks for it: the CVM puts SHA-256(binding statement || nonce) into its quote's
 * report_data, so a quote recorded earlier (or for another slot) cannot be replayed. The nonce is single-use by
 * construction: each admission draws one and asks for the quote in the same step.
 */
public final class NonceBinding {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private final String statement;
    private final byte[] nonce;

    private NonceBinding(String statement, byte[] nonce) {
        this.statement = statement;
        this.nonce = nonce;
    }

    /** A new 32-byte nonce bound to what is being admitted. */
    public static NonceBinding fresh(String appId, String slot, String instanceId) {
        byte[] nonce = new byte[32];
        RANDOM.nextBytes(nonce);
        return of(appId, slot, instanceId, nonce);
    }

    static NonceBinding of(String appId, String slot, String instanceId, byte[] nonce) {
        Map<String, String> fields = new TreeMap<>();
        fields.put("app_id", AdmissionPolicy.bare(appId));
        fields.put("instance_id", instanceId == null ? "" : instanceId);
        fields.put("purpose", "cluster-admission");
        fields.put("slot", slot);
        StringBuilder json = new StringBuilder("{");
        fields.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":\"").append(v).append('"'));
        return new NonceBinding(json.append('}').toString(), nonce.clone());
    }

    public String statement() {
        return statement;
    }

    /** The 64-byte report_data in hex: the 32-byte digest followed by zeros. */
    public String reportDataHex() {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(statement.getBytes(StandardCharsets.UTF_8));
            sha256.update(nonce);
            byte[] reportData = new byte[64];
            System.arraycopy(sha256.digest(), 0, reportData, 0, 32);
            return HEX.formatHex(reportData);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
