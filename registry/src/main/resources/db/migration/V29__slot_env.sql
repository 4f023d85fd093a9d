-- What the orchestrator knows of the env each slot's CVM runs, compared by the digest of its ciphertext (only a CVM of
-- the app can open it; nothing here is a value): known (sent by us and seen, first seen, or accepted by an approver),
-- sent (asked of Phala, not seen running yet) and drift (seen running, neither: changed behind our back). The
-- ciphertexts are kept so that a rollback can send the known env again.
CREATE TABLE orch_slot_env (
    replica_set    VARCHAR(64)    NOT NULL,
    ordinal        INT            NOT NULL,
    vm_uuid        VARCHAR(64),
    known_digest   VARCHAR(64),
    known_env      VARCHAR(262144),
    known_keys     VARCHAR(4000),
    known_source   VARCHAR(1000),
    known_at       TIMESTAMP WITH TIME ZONE,
    sent_digest    VARCHAR(64),
    sent_env       VARCHAR(262144),
    sent_keys      VARCHAR(4000),
    sent_source    VARCHAR(1000),
    sent_at        TIMESTAMP WITH TIME ZONE,
    drift_digest   VARCHAR(64),
    drift_env      VARCHAR(262144),
    drift_keys     VARCHAR(4000),
    drift_source   VARCHAR(1000),
    drift_at       TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_orch_slot_env PRIMARY KEY (replica_set, ordinal)
);
