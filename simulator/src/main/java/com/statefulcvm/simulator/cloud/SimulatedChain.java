package com.statefulcvm.simulator.cloud;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The chain the contracts of the simulated on-chain KMS apps live on, reduced to what a commit is verified against:
 * the transactions that called {@code addComposeHash} on an app's contract. Tests (and a person rehearsing) mine them
 * through the admin API; nothing else puts one there. A commit's transaction is verified as the CLI phala 1.1.18
 * reads the service's answers ({@code deploy}, after {@code confirmCvmPatch}):
 * <ul>
 * <li>a transaction the chain does not know: 468, the compose hash is not found on chain;</li>
 * <li>one that does not verify (reverted, or it registered another hash, or on another app's contract): 467;</li>
 * <li>one whose registration has expired: 466, the update has to start again.</li>
 * </ul>
 * In memory only, like the commit tokens.
 */
final class SimulatedChain {

    /** One {@code addComposeHash} transaction; {@code verifies} false: it reverted or cannot be verified. */
    record Transaction(String hash, String appId, String composeHash, boolean verifies, boolean expired) {
    }

    private final Map<String, Transaction> byHash = new LinkedHashMap<>();

    /** Mines a transaction, or replaces the one of that hash (to expire it, say). */
    Transaction mine(String appId, String composeHash, String hash, boolean verifies, boolean expired) {
        Transaction transaction = new Transaction(key(hash), appId, bare(composeHash), verifies, expired);
        byHash.put(transaction.hash(), transaction);
        return transaction;
    }

    /** Whether the app's contract allows the hash: a transaction registered it and has not expired. */
    boolean allows(String appId, String composeHash) {
        String hash = bare(composeHash);
        return byHash.values().stream().anyMatch(t -> t.verifies() && !t.expired() && t.appId().equals(appId)
                && t.composeHash().equalsIgnoreCase(hash));
    }

    /** Refuses a commit of {@code composeHash} for the app whose transaction does not register it. */
    void verify(String appId, String composeHash, String transactionHash) {
        Transaction transaction = byHash.get(key(transactionHash));
        String hash = bare(composeHash);
        if (transaction == null) {
            throw ApiException.detail(468, "Compose hash " + hash + " not found on-chain: no transaction "
                    + transactionHash + " registered it on the app's contract 0x" + appId);
        }
        if (!transaction.verifies() || !transaction.appId().equals(appId) || !transaction.composeHash().equalsIgnoreCase(hash)) {
            throw ApiException.detail(467, "Transaction verification failed: " + transactionHash
                    + " does not register compose hash " + hash + " on the app's contract 0x" + appId);
        }
        if (transaction.expired()) {
            throw ApiException.detail(466, "Compose hash " + hash + " expired: its registration in " + transactionHash
                    + " is too old; start the update again");
        }
    }

    void clear() {
        byHash.clear();
    }

    /** Whether {@code status} is one of the refusals {@link #verify} answers. */
    static boolean isRefusal(int status) {
        return status == 466 || status == 467 || status == 468;
    }

    private static String key(String hash) {
        return hash.toLowerCase(Locale.ROOT);
    }

    private static String bare(String hash) {
        return hash.startsWith("0x") ? hash.substring(2) : hash;
    }
}
