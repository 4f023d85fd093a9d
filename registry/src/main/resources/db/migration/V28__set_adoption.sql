-- Sets whose app was made elsewhere and that an approver adopted: until then the orchestrator only observes them.
CREATE TABLE orch_set_adoption (
    replica_set   VARCHAR(64)   NOT NULL,
    app_id        VARCHAR(128)  NOT NULL,
    revision      INTEGER       NOT NULL,
    adopted_by    VARCHAR(128)  NOT NULL,
    adopted_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    summary       VARCHAR(4000),
    -- ordinal=revision, comma-separated: the revision each adopted slot ran
    slot_revisions VARCHAR(4000),
    CONSTRAINT pk_orch_set_adoption PRIMARY KEY (replica_set)
);

-- A set that already has a history was managed before adoptions existed: it stays managed.
INSERT INTO orch_set_adoption (replica_set, app_id, revision, adopted_by, adopted_at, summary, slot_revisions)
SELECT r.replica_set, '(recorded before adoptions)', MIN(r.number), 'upgrade', CURRENT_TIMESTAMP,
       'managed before adoption was a procedure', ''
FROM orch_revision r GROUP BY r.replica_set;
