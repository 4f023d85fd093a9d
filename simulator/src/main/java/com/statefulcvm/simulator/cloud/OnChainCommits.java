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
 * and transaction hashes ({@code X-Compose-Hash}/{@code X-Transaction-Hash}, or the env update's body fields). A new
 * instance of such an app goes the same way ({@code POST /apps/{id}/instances}: 465, then the same call with {@code
 * token}, {@code compose_hash}, {@code transaction_hash}, as the CLI's {@code instances add --commit} sends it). The
 * transaction is verified against the {@link SimulatedChain} (466, 467, 468). Tokens are single-use, also when the
 * chain refuses their commit (the CLI's answer to 466 is to start the update again), and live in memory only.
 */
final class OnChainCommits {

    /** The chain of the simulated on-chain KMS: Base (8453), one of the SDK's {@code SUPPORTED_CHAINS}. */
    static final int CHAIN_ID = 8453;
    static final String KMS_CONTRACT = "0x" + "5a1d".repeat(10);
    private static final Pattern TRANSACTION_HASH = Pattern.compile("^0x[0-9a-fA-F]{64}$");
    private static final Pattern COMPOSE_HASH = Pattern.compile("^(0x)?[0-9a-fA-F]{64}$");

    private final Map<String, CvmUpdates.Pending> byToken = new LinkedHashMap<>();
    private final Map<String, PendingInstance> instancesByToken = new LinkedHashMap<>();
    private final SimulatedChain chain = new SimulatedChain();

    /** A new instance a 465 holds back until its commit: the request as it came, and the hash of its compose. */
    record PendingInstance(String appId, com.statefulcvm.simulator.api.InstanceRequest request, String composeHash) {
    }

    ApiException preconditionRequired(SimulatedApp app, SimulatedCvm cvm, CvmUpdates.Pending update) {
        String token = Ids.hex(24);
        byToken.put(token, update);
        return required(app, update.composeHash(), cvm.nodeId, token,
                "https://cloud.phala.network/dashboard/cvms/" + cvm.vmUuid + "/commit?token=" + token,
                "/api/v1/cvms/" + cvm.id + "/commit-update", "the update");
    }

    /** Phase 1 of a new instance of an on-chain KMS app: its node's device and its compose must be allowed first. */
    ApiException instancePreconditionRequired(SimulatedApp app, PendingInstance instance, int nodeId) {
        String token = Ids.hex(24);
        instancesByToken.put(token, instance);
        return required(app, instance.composeHash(), nodeId, token,
                "https://cloud.phala.network/dashboard/apps/" + app.appId + "/instances/commit?token=" + token,
                "/api/v1/apps/" + app.appId + "/instances", "the new instance");
    }

    private ApiException required(SimulatedApp app, String composeHash, int nodeId, String token, String commitUrl,
            String apiCommitUrl, String what) {
        List<Map<String, Object>> details = new ArrayList<>();
        details.add(field("compose_hash", composeHash));
        details.add(field("app_id", app.appId));
        details.add(field("device_id", CvmViews.deviceId(nodeId)));
        details.add(field("kms_info", kmsInfo()));
        details.add(field("commit_token", token));
        details.add(field("commit_url", commitUrl));
        details.add(field("api_commit_url", apiCommitUrl));
        boolean allowed = app.registeredComposeHashes.contains(composeHash) || chain.allows(app.appId, composeHash);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("compose_hash_allowed", allowed);
        status.put("device_id_allowed", true);
        status.put("is_allowed", allowed);
        details.add(field("onchain_status", status));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("message", "Compose hash " + composeHash + " must be registered on the app's contract before " + what);
        detail.put("details", details);
        return new ApiException(465, Map.of("detail", detail));
    }

    CvmUpdates.Pending take(SimulatedApp app, SimulatedCvm cvm, String token, String composeHash, String transactionHash) {
        if (token == null || token.isBlank()) {
            throw ApiException.missing("token");
        }
        CvmUpdates.Pending update = byToken.get(token);
        if (update == null || !update.vmUuid().equals(cvm.vmUuid)) {
            throw ApiException.badRequest("Unknown or used commit token for this CVM");
        }
        checkOnceOnChain(() -> checkCommit(app, update.composeHash(), composeHash, transactionHash), () -> byToken.remove(token));
        byToken.remove(token);
        return update;
    }

    /** Phase 2 of a new instance: the request its 465 held back, once the chain shows the registration. */
    PendingInstance takeInstance(SimulatedApp app, String token, String composeHash, String transactionHash) {
        PendingInstance instance = instancesByToken.get(token);
        if (instance == null || !instance.appId().equals(app.appId)) {
            throw ApiException.badRequest("Unknown or used commit token for this app");
        }
        checkOnceOnChain(() -> checkCommit(app, instance.composeHash(), composeHash, transactionHash),
                () -> instancesByToken.remove(token));
        instancesByToken.remove(token);
        return instance;
    }

    /** Mines an {@code addComposeHash} transaction on the app's contract (the admin API). */
    SimulatedChain.Transaction mine(String appId, String composeHash, String transactionHash, boolean verifies,
            boolean expired) {
        if (composeHash == null || !COMPOSE_HASH.matcher(composeHash).matches()) {
            throw ApiException.missing("composeHash");
        }
        String hash = transactionHash == null ? "0x" + Ids.hex(32) : transactionHash;
        if (!TRANSACTION_HASH.matcher(hash).matches()) {
            throw ApiException.badRequest("transactionHash must be 0x followed by 64 hex digits");
        }
        return chain.mine(appId, composeHash, hash, verifies, expired);
    }

    void clear() {
        byToken.clear();
        instancesByToken.clear();
    }

    /** Forgets the chain's transactions too (a reset of the simulator). */
    void reset() {
        clear();
        chain.clear();
    }

    /** A token whose commit the chain refused is used up: the update starts again from phase 1. */
    private static void checkOnceOnChain(Runnable check, Runnable useUpToken) {
        try {
            check.run();
        } catch (ApiException e) {
            if (SimulatedChain.isRefusal(e.status())) {
                useUpToken.run();
            }
            throw e;
        }
    }

    /**
     * The commit names the hash of the update it commits and a transaction hash ({@code 0x} + 32 bytes), which the
     * chain must show registering that hash on the app's contract.
     */
    void checkCommit(SimulatedApp app, String expectedComposeHash, String composeHash, String transactionHash) {
        checkForm(expectedComposeHash, composeHash, transactionHash);
        chain.verify(app.appId, expectedComposeHash, transactionHash);
    }

    private static void checkForm(String expectedComposeHash, String composeHash, String transactionHash) {
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
