package com.statefulcvm.connectors.phala;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/**
 * What an HTTP 465 says about an on-chain KMS app's update, read from {@code detail.details[]} as the SDK reads it
 * ({@code updateDockerCompose}, {@code updateCvmEnvs}: {@code compose_hash}, {@code app_id}, {@code device_id},
 * {@code kms_info}; {@code patchCvm} adds {@code commit_token}, {@code commit_url}, {@code api_commit_url},
 * {@code onchain_status}). The compose hash must be added to the app's contract ({@code addComposeHash(bytes32)} at
 * {@code 0x<app_id>}, SDK {@code addComposeHash}) and the update committed with that transaction's hash.
 *
 * @param kmsInfo      the KMS as the SDK's {@code KmsInfoSchema} describes it (chain_id, kms_contract_address, ...), as JSON text; may be null
 * @param commitToken  one-time token for {@code POST /cvms/{id}/commit-update}; null when the answer carried none
 * @param onchainStatus {@code {compose_hash_allowed, device_id_allowed, is_allowed}} as JSON text; may be null
 */
public record OnChainHashRequired(String composeHash, String appId, String deviceId, String kmsInfo,
                                  String commitToken, String onchainStatus) {

    static Optional<OnChainHashRequired> from(Map<String, JsonNode> fields) {
        String composeHash = text(fields.get("compose_hash"));
        String appId = text(fields.get("app_id"));
        // the SDK returns precondition_required only when both are present; otherwise it rethrows the 465
        if (composeHash == null || appId == null) {
            return Optional.empty();
        }
        return Optional.of(new OnChainHashRequired(composeHash, appId, text(fields.get("device_id")),
                json(fields.get("kms_info")), text(fields.get("commit_token")), json(fields.get("onchain_status"))));
    }

    /** The contract the hash goes to: the app's own ({@code 0x} + app id), as the SDK's {@code addComposeHash} derives it. */
    public String appContractAddress() {
        String bare = appId.startsWith("app_") ? appId.substring(4) : appId;
        return bare.startsWith("0x") ? bare : "0x" + bare;
    }

    /** The call to make on that contract. */
    public String contractCall() {
        return "addComposeHash(0x" + composeHash + ")";
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.isValueNode() ? node.asText() : node.toString();
    }

    private static String json(JsonNode node) {
        return node == null || node.isNull() ? null : node.toString();
    }
}
