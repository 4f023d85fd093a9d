package com.statefulcvm.fleet.admission;

import java.time.Instant;
import java.util.Optional;

/**
 * The instance_id each slot is bound to in our own records: the one an attestation of ours last admitted there (a CVM
 * we created, or the first one we saw in the slot). A re-attestation binds to it, not to whatever instance_id Phala
 * reports now: a CVM replaced behind our back (a new instance_id in the slot that no procedure of ours created) does
 * not match, is refused and fenced.
 */
public interface AdmittedIdentities {

    Optional<String> admitted(String replicaSet, int ordinal);

    /** Records the instance_id an attestation admitted into the slot (replacing the one before). */
    void admit(String replicaSet, int ordinal, String instanceId, String admittedBy, Instant at);
}
