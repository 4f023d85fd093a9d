package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Intel's TCB info, v3 as served for TDX by PCS {@code /tdx/certification/v4/tcb} (Intel "PCS API v4", TCB Info V3):
 * the platform TCB levels with SGX and TDX component SVNs, and the TDX module identities.
 */
record TcbInfo(String id, int version, Instant issueDate, Instant nextUpdate, byte[] fmspc, byte[] pceId,
               ModuleIdentity tdxModule, List<ModuleIdentity> tdxModuleIdentities, List<TcbLevel> tcbLevels) {

    /** One platform TCB level; levels come newest first. */
    record TcbLevel(int[] sgxComponents, int pceSvn, int[] tdxComponents, String status, List<String> advisoryIds) {
    }

    /** A TDX module's signer and attributes, with its own ISVSVN levels. */
    record ModuleIdentity(String id, byte[] mrSigner, byte[] attributes, byte[] attributesMask,
                          List<IsvLevel> tcbLevels) {
    }

    /** An ISVSVN level, used by TDX module identities and QE identities alike. */
    record IsvLevel(int isvSvn, String status, List<String> advisoryIds) {
    }

    static TcbInfo parse(String json) {
        JsonNode root = read(json, "TCB info");
        List<TcbLevel> levels = new ArrayList<>();
        for (JsonNode level : array(root, "tcbLevels")) {
            JsonNode tcb = field(level, "tcb");
            levels.add(new TcbLevel(svns(field(tcb, "sgxtcbcomponents")), field(tcb, "pcesvn").asInt(),
                    tcb.has("tdxtcbcomponents") ? svns(tcb.get("tdxtcbcomponents")) : new int[0],
                    field(level, "tcbStatus").asText(), advisories(level)));
        }
        List<ModuleIdentity> identities = new ArrayList<>();
        if (root.has("tdxModuleIdentities")) {
            for (JsonNode identity : array(root, "tdxModuleIdentities")) {
                identities.add(module(identity));
            }
        }
        return new TcbInfo(field(root, "id").asText(), field(root, "version").asInt(), instant(root, "issueDate"),
                instant(root, "nextUpdate"), hex(root, "fmspc"), hex(root, "pceId"),
                root.has("tdxModule") ? module(root.get("tdxModule")) : null, identities, levels);
    }

    private static ModuleIdentity module(JsonNode node) {
        List<IsvLevel> levels = node.has("tcbLevels") ? isvLevels(node) : List.of();
        return new ModuleIdentity(node.has("id") ? node.get("id").asText() : null, hex(node, "mrsigner"),
                hex(node, "attributes"), hex(node, "attributesMask"), levels);
    }

    static List<IsvLevel> isvLevels(JsonNode node) {
        List<IsvLevel> levels = new ArrayList<>();
        for (JsonNode level : array(node, "tcbLevels")) {
            levels.add(new IsvLevel(field(field(level, "tcb"), "isvsvn").asInt(), field(level, "tcbStatus").asText(),
                    advisories(level)));
        }
        return levels;
    }

    private static List<String> advisories(JsonNode level) {
        List<String> ids = new ArrayList<>();
        if (level.has("advisoryIDs")) {
            level.get("advisoryIDs").forEach(id -> ids.add(id.asText()));
        }
        return ids;
    }

    private static int[] svns(JsonNode components) {
        int[] out = new int[components.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = field(components.get(i), "svn").asInt();
        }
        return out;
    }

    static JsonNode read(String json, String what) {
        try {
            JsonNode node = AttestationJson.MAPPER.readTree(json);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException(what + " is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(what + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    static Iterable<JsonNode> array(JsonNode node, String name) {
        JsonNode value = field(node, name);
        if (!value.isArray()) {
            throw new IllegalArgumentException("field '" + name + "' is not an array");
        }
        return value;
    }

    static byte[] hex(JsonNode node, String name) {
        try {
            return Bytes.unhex(field(node, name).asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field '" + name + "' is not hex");
        }
    }

    static Instant instant(JsonNode node, String name) {
        try {
            return Instant.parse(field(node, name).asText());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("field '" + name + "' is not an ISO-8601 instant");
        }
    }
}
