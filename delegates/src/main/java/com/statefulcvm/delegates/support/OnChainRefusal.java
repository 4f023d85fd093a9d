package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.OnChainHashRequired;
import com.statefulcvm.connectors.phala.PhalaApiException;

import java.util.Optional;

/**
 * Why the service refused phase 2 of an on-chain KMS update with a transaction, in words for the person asked for a
 * registration again. The statuses are read as the CLI phala 1.1.18 reads them after the SDK's {@code
 * confirmCvmPatch} ({@code deploy}): 466 the compose hash expired ("retry the update from the beginning"), 467 the
 * transaction failed verification, 468 the compose hash is not on the contract. A 465 again, or a 400 (a token the
 * service no longer takes: the CLI's "run --prepare-only again"), means the transaction does not commit this update
 * either. None of them is sent again with the same transaction.
 */
public final class OnChainRefusal {

    private OnChainRefusal() {
    }

    /** The reason, or empty when {@code refused} is no refusal of the registration (a 5xx, a 409, ...). */
    public static Optional<String> of(PhalaApiException refused, OnChainHashRequired required, String transactionHash) {
        String hash = required.composeHash();
        String contract = required.appContractAddress();
        if (refused.isComposeHashExpired()) {
            return Optional.of("Phala answered 466: the registration of compose hash " + hash + " has expired"
                    + " (transaction " + transactionHash + "); register it again and give the new transaction");
        }
        if (refused.isTransactionVerificationFailed()) {
            return Optional.of("Phala answered 467: transaction " + transactionHash + " failed verification; give a"
                    + " mined transaction that calls " + required.contractCall() + " on " + contract);
        }
        if (refused.isComposeHashNotFoundOnChain()) {
            return Optional.of("Phala answered 468: compose hash " + hash + " was not found on chain at " + contract
                    + " after transaction " + transactionHash + "; register it there and give that transaction");
        }
        if (refused.isOnChainHashRequired() || refused.status() == 400) {
            return Optional.of("Phala answered " + refused.status() + " to the commit with transaction "
                    + transactionHash + (refused.apiMessage() == null ? "" : " (" + refused.apiMessage() + ")")
                    + "; it does not commit compose hash " + hash);
        }
        return Optional.empty();
    }
}
