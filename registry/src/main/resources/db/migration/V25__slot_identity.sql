-- The instance_id each slot is bound to in our own records: the one an attestation of ours last admitted into it. The
-- health monitor's re-attestation binds to it instead of to what Phala reports now, so a CVM replaced behind our back
-- is refused and fenced. Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE IF NOT EXISTS orch_slot_identity (
    replica_set   VARCHAR(64)   NOT NULL,
    ordinal       INT           NOT NULL,
    instance_id   VARCHAR(64)   NOT NULL,
    admitted_by   VARCHAR(128),
    admitted_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_orch_slot_identity PRIMARY KEY (replica_set, ordinal)
);
