-- The health monitors run outside the process engine (docs/healing.md): each replica set's monitor is owned by one
-- node at a time through a lease in this table, renewed by its owner and taken over by another node once it has
-- expired (the owner died). The row is also what every heal start of the set locks first, so that two starts for one
-- set (the monitor, an operator, two nodes) are never decided by two transactions at once. stage is what the
-- monitor last said of the set, written when it changes. Times are the database's (CURRENT_TIMESTAMP), so that the
-- nodes' clocks do not matter. Plain SQL that H2 and PostgreSQL both accept.
CREATE TABLE orch_health_monitor (
    replica_set    VARCHAR(64)   NOT NULL,
    owner          VARCHAR(128),
    lease_until    TIMESTAMP WITH TIME ZONE,
    heals_started  INT           NOT NULL,
    stage          VARCHAR(1000),
    stage_at       TIMESTAMP WITH TIME ZONE,
    CONSTRAINT pk_orch_health_monitor PRIMARY KEY (replica_set)
);

-- The nodes that run health monitors, each with the time its heartbeat is good until: the live ones share the sets.
CREATE TABLE orch_monitor_node (
    node_id          VARCHAR(128)  NOT NULL,
    heartbeat_until  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_orch_monitor_node PRIMARY KEY (node_id)
);
