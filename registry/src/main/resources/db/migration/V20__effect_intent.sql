-- Exactly-once effects (docs/operations.md#exactly-once-effects): before the orchestrator asks Phala to change a CVM
-- (create, start, stop, shutdown, restart, compose update, env update, delete) it commits an intent here, in a
-- transaction of its own; whoever runs the step again reads it back and does not ask twice without looking at Phala
-- first. intent_key names the procedure instance, the slot, its attempt and the effect (delegates' EffectScope).
-- state: INTENDED (the call may be under way), UNCERTAIN (it ended without a verdict), APPLIED, NOT_APPLIED.
-- attempts counts the calls made for the intent: more than one only after Phala showed an earlier one had not taken
-- (or, for a fence's stop, that the CVM ran again since). Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE orch_effect_intent (
    intent_key         VARCHAR(400)  NOT NULL,
    replica_set        VARCHAR(64)   NOT NULL,
    slot               VARCHAR(80)   NOT NULL,
    cvm                VARCHAR(80),
    effect             VARCHAR(16)   NOT NULL,
    target             VARCHAR(128),
    procedure_key      VARCHAR(64)   NOT NULL,
    procedure_id       VARCHAR(64),
    state              VARCHAR(16)   NOT NULL,
    attempts           INT           NOT NULL,
    first_intended_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    intended_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    intended_by        VARCHAR(128),
    settled_at         TIMESTAMP WITH TIME ZONE,
    outcome            VARCHAR(1000),
    CONSTRAINT pk_orch_effect_intent PRIMARY KEY (intent_key)
);
CREATE INDEX ix_orch_effect_intent_procedure ON orch_effect_intent (procedure_id);
CREATE INDEX ix_orch_effect_intent_at ON orch_effect_intent (first_intended_at);
