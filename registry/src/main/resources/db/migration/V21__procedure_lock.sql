-- One procedure per replica set across every node (ProcedureStarts): a start check takes the set's row lock (an UPDATE)
-- in the transaction that starts the procedure and holds it until that transaction ends, so a second start of the
-- same set, on any node, waits and then sees the first one running. locked_at and locked_by only say who last held it.
CREATE TABLE orch_procedure_lock (
    replica_set  VARCHAR(64)  NOT NULL,
    locked_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    locked_by    VARCHAR(255),
    CONSTRAINT pk_orch_procedure_lock PRIMARY KEY (replica_set)
);
