-- Scaling (scale.bpmn): the replica count a scale recorded for a set, with the fleet file's count it was recorded
-- against (the file wins once its count changes: docs/scaling.md), and the slots a scale-down took out of the set with
-- their CVM stopped and kept (scaling.scaleDown: retain). Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE orch_scaled_replicas (
    replica_set    VARCHAR(64)  NOT NULL PRIMARY KEY,
    replicas       INT          NOT NULL,
    file_replicas  INT          NOT NULL,
    scaled_by      VARCHAR(255) NOT NULL,
    scaled_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE orch_retained_slot (
    replica_set    VARCHAR(64)  NOT NULL,
    ordinal        INT          NOT NULL,
    slot           VARCHAR(80)  NOT NULL,
    cvm_id         VARCHAR(80),
    instance_id    VARCHAR(64),
    retained_by    VARCHAR(255) NOT NULL,
    retained_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_orch_retained_slot PRIMARY KEY (replica_set, ordinal)
);
