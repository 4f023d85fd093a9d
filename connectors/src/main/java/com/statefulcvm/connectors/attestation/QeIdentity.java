package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * Intel's identity of the TD Quoting Enclave, "Enclave Identity V2" as served by PCS
 * {@code /tdx/certification/v4/qe/identity} (id {@code TD_QE}).
 */
record QeIdentity(String id, int version, Instant issueDate, Instant nextUpdate, byte[] miscselect,
                  byte[] miscselectMask, byte[] attributes, byte[] attributesMask, byte[] mrSigner, int isvProdId,
                  List<TcbInfo.IsvLevel> tcbLevels) {

    static QeIdentity parse(String json) {
        JsonNode root = TcbInfo.read(json, "QE identity");
        return new QeIdentity(TcbInfo.field(root, "id").asText(), TcbInfo.field(root, "version").asInt(),
                TcbInfo.instant(root, "issueDate"), TcbInfo.instant(root, "nextUpdate"),
                TcbInfo.hex(root, "miscselect"), TcbInfo.hex(root, "miscselectMask"),
                TcbInfo.hex(root, "attributes"), TcbInfo.hex(root, "attributesMask"),
                TcbInfo.hex(root, "mrsigner"), TcbInfo.field(root, "isvprodid").asInt(), TcbInfo.isvLevels(root));
    }
}
