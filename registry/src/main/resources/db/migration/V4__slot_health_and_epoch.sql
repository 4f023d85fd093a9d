-- The health monitor's memory of each slot between rounds (monitor-health.bpmn), what the last heal did and why
-- (heal.bpmn), and each slot's epoch: how many times the slot has had a new CVM identity (a new instance_id). The
-- first CVM of a slot is epoch 0; a replacement increases it, and the old identity is never reused.
-- Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE orch_slot_health (
    replica_set            VARCHAR(64)   NOT NULL,
    ordinal                INT           NOT NULL,
    epoch                  INT           NOT NULL,
    epoch_instance_id      VARCHAR(64),
    instance_id            VARCHAR(64),
    last_status            VARCHAR(32),
    healthy                BOOLEAN,
    consecutive_failures   INT           NOT NULL,
    consecutive_successes  INT           NOT NULL,
    last_probe_at          TIMESTAMP WITH TIME ZONE,
    last_result            VARCHAR(1000),
    last_change_at         TIMESTAMP WITH TIME ZONE,
    started_at             TIMESTAMP WITH TIME ZONE,
    last_heal              VARCHAR(1000),
    last_heal_at           TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_orch_slot_health PRIMARY KEY (replica_set, ordinal)
);
