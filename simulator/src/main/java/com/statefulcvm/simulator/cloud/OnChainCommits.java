package com.statefulcvm.simulator.cloud;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.statefulcvm.simulator.api.KmsInfo;

/**
 * The two phases of an update of an on-chain KMS app, as the SDK expects them: phase 1 answers HTTP 465 with
 * {@code detail.details[]} holding {@code compose_hash}, {@code app_id}, {@code device_id}, {@code kms_info}
 * ({@code updateDockerCompose}, {@code updateCvmEnvs}) and {@code commit_token}, {@code commit_url},
 * {@code api_commit_url}, {@code onchain_status} ({@code patchCvm}); phase 2 is {@code POST /cvms/{id}/commit-update}
 * {@code {token, compose_hash, transaction_hash}} ({@code commitCvmUpdate}), or the same update again with the compose
 * and transaction hashes ({@code X-Compose-Hash}/{@code X-Transaction-Hash}, or the env update's body fields). The
 * simulator has no chain: any well-formed transaction hash counts as the registration. Tokens are single-use and live
 * in memory only.
 */
final class OnChainCommits {

    /** The chain of the simulated on-chain KMS: Base (8453), one of the SDK's {@code SUPPORTED_CHAINS}. */
    static final int CHAIN_ID = 8453;
    static final String KMS_CONTRACT = "0x" + "5a1d".repeat(10);
    private static final Pattern TRANSACTION_HASH = Pattern.compile("^0x[0-9a-fA-F]{64}$");
    private static final Pattern COMPOSE_HASH = Pattern.compile("^(0x)?[0-9a-fA-F]{64}$");

    private final Map<String, CvmUpdates.Pending> byToken = new LinkedHashMap<>();

    ApiException preconditionRequired(SimulatedApp app, SimulatedCvm cvm, CvmUpdates.Pending update) {
        String token = Ids.hex(24);
        byToken.put(token, update);
        String composeHash = update.composeHash();
        List<Map<String, Object>> details = new ArrayList<>();
        details.add(field("compose_hash", composeHash));
        details.add(field("app_id", app.appId));
        details.add(field("device_id", CvmViews.deviceId(cvm.nodeId)));
        details.add(field("kms_info", kmsInfo()));
        details.add(field("commit_token", token));
        details.add(field("commit_url", "https://cloud.phala.network/dashboard/cvms/" + cvm.vmUuid + "/commit?token=" + token));
        details.add(field("api_commit_url", "/api/v1/cvms/" + cvm.id + "/commit-update"));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("compose_hash_allowed", app.registeredComposeHashes.contains(composeHash));
        status.put("device_id_allowed", true);
        status.put("is_allowed", false);
        details.add(field("onchain_status", status));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("message", "Compose hash " + composeHash + " must be registered on the app's contract before the update");
        detail.put("details", details);
        return new ApiException(465, Map.of("detail", detail));
    }

    CvmUpdates.Pending take(SimulatedCvm cvm, String token, String composeHash, String transactionHash) {
        if (token == null || token.isBlank()) {
            throw ApiException.missing("token");
        }
        CvmUpdates.Pending update = byToken.get(token);
        if (update == null || !update.vmUuid().equals(cvm.vmUuid)) {
            throw ApiException.badRequest("Unknown or used commit token for this CVM");
        }
        checkCommit(update.composeHash(), composeHash, transactionHash);
        byToken.remove(token);
        return update;
    }

    void clear() {
        byToken.clear();
    }

    /** The commit names the hash of the update it commits, and a transaction hash ({@code 0x} + 32 bytes). */
    static void checkCommit(String expectedComposeHash, String composeHash, String transactionHash) {
        if (composeHash == null || !COMPOSE_HASH.matcher(composeHash).matches()) {
            throw ApiException.missing("compose_hash");
        }
        String bare = composeHash.startsWith("0x") ? composeHash.substring(2) : composeHash;
        if (!bare.equalsIgnoreCase(expectedComposeHash)) {
            throw ApiException.badRequest("compose_hash " + composeHash + " is not the hash of this update ("
                    + expectedComposeHash + ")");
        }
        if (transactionHash == null || !TRANSACTION_HASH.matcher(transactionHash).matches()) {
            throw ApiException.badRequest("transaction_hash must be 0x followed by 64 hex digits");
        }
    }

    /** The SDK's {@code KmsInfoSchema} of the simulated on-chain KMS. */
    static KmsInfo kmsInfo() {
        return new KmsInfo(SimulatedKms.ID + "_base", SimulatedKms.SLUG + "-base", "https://kms-base.sim.phala.local",
                CvmSnapshot.KMS_VERSION, CHAIN_ID, KMS_CONTRACT, null);
    }

    private static Map<String, Object> field(String name, Object value) {
        Map<String, Object> field = new LinkedHashMap<>();
        field.put("field", name);
        field.put("value", value);
        return field;
    }
}
