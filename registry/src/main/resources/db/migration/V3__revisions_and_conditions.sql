-- Each replica set's revisions (a compose as it was rolled out), which one the set runs and which one it is moving
-- to, and the typed conditions of every instance. Plain SQL that H2 and PostgreSQL both accept.

CREATE TABLE orch_revision (
    replica_set     VARCHAR(64)     NOT NULL,
    number          INT             NOT NULL,
    -- SHA-256 (hex) of the normalized compose text: the same compose is the same revision
    digest          VARCHAR(64)     NOT NULL,
    -- Phala's compose hash, known once an instance runs the revision
    compose_hash    VARCHAR(128),
    -- large enough for any compose the API accepts (256 KiB); VARCHAR(n) works on both databases, CLOB/TEXT do not
    docker_compose  VARCHAR(262144) NOT NULL,
    created_by      VARCHAR(255)    NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    reason          VARCHAR(1000),
    CONSTRAINT pk_orch_revision PRIMARY KEY (replica_set, number),
    CONSTRAINT uq_orch_revision_digest UNIQUE (replica_set, digest)
);

-- One row per set that has revisions (orch_replica_set only holds sets whose app this deployment created).
CREATE TABLE orch_replica_set_revision (
    replica_set       VARCHAR(64) NOT NULL PRIMARY KEY,
    current_revision  INT,
    update_revision   INT
);

CREATE TABLE orch_instance_condition (
    replica_set           VARCHAR(64)   NOT NULL,
    ordinal               INT           NOT NULL,
    type                  VARCHAR(32)   NOT NULL,
    status                BOOLEAN       NOT NULL,
    reason                VARCHAR(1000),
    last_transition_time  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_orch_instance_condition PRIMARY KEY (replica_set, ordinal, type)
);
