package com.statefulcvm.connectors.attestation;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What the PCK leaf certificate says about the platform, from Intel's SGX extension (OID 1.2.840.113741.1.13.1,
 * "SGX PCK Certificate and CRL Profile"): the 16 SGX TCB component SVNs, PCESVN, PCE-ID and FMSPC, plus which
 * Intel CA issued it (its PCCS CRL is named after it).
 */
record PckExtensions(int[] sgxTcbComponents, int pceSvn, byte[] pceId, byte[] fmspc, String ca) {

    static final String SGX_EXTENSION = "1.2.840.113741.1.13.1";
    private static final String TCB = SGX_EXTENSION + ".2";
    private static final String PCE_ID = SGX_EXTENSION + ".3";
    private static final String FMSPC = SGX_EXTENSION + ".4";

    static PckExtensions of(X509Certificate pck) {
        byte[] wrapped = pck.getExtensionValue(SGX_EXTENSION);
        if (wrapped == null) {
            throw new IllegalArgumentException("the PCK certificate has no SGX extension");
        }
        int[] components = null;
        Integer pceSvn = null;
        byte[] pceId = null;
        byte[] fmspc = null;
        for (Der.Tlv entry : Der.read(Der.read(wrapped).octets()).children()) {
            List<Der.Tlv> pair = entry.children();
            String oid = pair.get(0).oid();
            Der.Tlv value = pair.get(1);
            switch (oid) {
                case TCB -> {
                    components = new int[16];
                    for (Der.Tlv tcbEntry : value.children()) {
                        List<Der.Tlv> tcbPair = tcbEntry.children();
                        String tcbOid = tcbPair.get(0).oid();
                        int index = Integer.parseInt(tcbOid.substring(TCB.length() + 1));
                        if (index >= 1 && index <= 16) {
                            components[index - 1] = tcbPair.get(1).intValue();
                        } else if (index == 17) {
                            pceSvn = tcbPair.get(1).intValue();
                        }
                    }
                }
                case PCE_ID -> pceId = value.octets();
                case FMSPC -> fmspc = value.octets();
                default -> {
                    // PPID, SGX type, platform instance and configuration do not take part in verification.
                }
            }
        }
        if (components == null || pceSvn == null || pceId == null || fmspc == null) {
            throw new IllegalArgumentException("the PCK certificate's SGX extension lacks TCB, PCE-ID or FMSPC");
        }
        String issuer = pck.getIssuerX500Principal().getName();
        String ca = issuer.contains("Processor") ? "processor" : issuer.contains("Platform") ? "platform" : null;
        return new PckExtensions(components, pceSvn, pceId, fmspc, ca);
    }
}
