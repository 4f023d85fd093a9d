-- Admission enforced outside our procedures: a slot whose instance failed attestation (in a rollout, a scale, a heal
-- or the health monitor's re-attestation) is fenced: its CVM stopped or drained, kept out of the workload, neither
-- probed, counted nor healed, until an operator readmits it and a new attestation admits it (which deletes the row).
-- A slot without a row is not fenced. Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE orch_slot_fence (
    replica_set   VARCHAR(64)   NOT NULL,
    ordinal       INT           NOT NULL,
    instance_id   VARCHAR(64),
    action        VARCHAR(16)   NOT NULL,
    reason        VARCHAR(1000) NOT NULL,
    fenced_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    fenced_by     VARCHAR(128),
    CONSTRAINT pk_orch_slot_fence PRIMARY KEY (replica_set, ordinal)
);
