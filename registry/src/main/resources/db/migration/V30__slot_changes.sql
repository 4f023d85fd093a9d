-- Each slot's recent history, as the Instances panel draws it (a strip per instance): one row each time what we know
-- of the slot changes (its CVM's status, its health, its attestation verdict), written with the slot's own record, so
-- a monitor round that finds nothing new writes nothing here either. Kept for a day. Plain SQL that H2 and PostgreSQL
-- both accept.
CREATE TABLE orch_slot_change (
    replica_set  VARCHAR(64)               NOT NULL,
    ordinal      INT                       NOT NULL,
    at           TIMESTAMP WITH TIME ZONE  NOT NULL,
    status       VARCHAR(32),
    healthy      BOOLEAN,
    attested     BOOLEAN
);
CREATE INDEX ix_orch_slot_change ON orch_slot_change (replica_set, ordinal, at);
