package com.statefulcvm.fleet;


import java.util.ArrayList;
import java.util.List;

/** What a replica set's CVMs must prove before they may serve: the admission policy's per-set part. */
public class AttestationSpec {

    /** TCB statuses Intel defines; Revoked is never acceptable. */
    public static final List<String> TCB_STATUSES = List.of("UpToDate", "SWHardeningNeeded", "ConfigurationNeeded",
            "ConfigurationAndSWHardeningNeeded", "OutOfDate", "OutOfDateConfigurationNeeded");

    private boolean required = true;
    /** Pinned KMS public keys (hex, as in the key-provider event's id); empty means any key provider named kms. */
    private List<String> kmsKeyIds = new ArrayList<>();
    /** Allowed OS image hashes (hex); empty means any. */
    private List<String> osImageHashes = new ArrayList<>();
    /**
     * The platforms (MRTD and RTMR0-2) the set's CVMs may run on. Empty means any, which only a deployment with the
     * built-in simulator accepts: with the real Phala Cloud every set that requires attestation must pin them, and its
     * KMS key (FleetValidator).
     */
    private List<PlatformMeasurements> platforms = new ArrayList<>();
    private List<String> acceptedTcbStatuses = new ArrayList<>(List.of("UpToDate"));
    /** How a CVM that fails attestation (in any procedure, or when the monitor re-attests it) is kept out. */
    private FencePolicy onFailure = FencePolicy.STOP;

    /** A copy that also accepts {@code more} platforms (those an approver pinned after a refusal); the others as they are. */
    public AttestationSpec withMorePlatforms(List<PlatformMeasurements> more) {
        AttestationSpec copy = new AttestationSpec();
        copy.required = required;
        copy.kmsKeyIds = new ArrayList<>(kmsKeyIds);
        copy.osImageHashes = new ArrayList<>(osImageHashes);
        copy.platforms = new ArrayList<>(platforms == null ? List.of() : platforms);
        copy.platforms.addAll(more);
        copy.acceptedTcbStatuses = new ArrayList<>(acceptedTcbStatuses);
        copy.onFailure = onFailure;
        return copy;
    }

    public boolean isRequired() { return required; }
    public void setRequired(boolean required) { this.required = required; }
    public List<String> getKmsKeyIds() { return kmsKeyIds; }
    public void setKmsKeyIds(List<String> kmsKeyIds) { this.kmsKeyIds = kmsKeyIds; }
    public List<PlatformMeasurements> getPlatforms() { return platforms; }
    public void setPlatforms(List<PlatformMeasurements> platforms) { this.platforms = platforms; }
    public List<String> getOsImageHashes() { return osImageHashes; }
    public void setOsImageHashes(List<String> osImageHashes) { this.osImageHashes = osImageHashes; }
    public List<String> getAcceptedTcbStatuses() { return acceptedTcbStatuses; }
    public void setAcceptedTcbStatuses(List<String> acceptedTcbStatuses) { this.acceptedTcbStatuses = acceptedTcbStatuses; }
    public FencePolicy getOnFailure() { return onFailure; }
    public void setOnFailure(FencePolicy onFailure) { this.onFailure = onFailure; }
}
