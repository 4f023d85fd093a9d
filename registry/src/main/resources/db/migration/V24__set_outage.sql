-- A replica set in an outage: more of its slots down than its disruption budget tolerates (fleet/.../budget). While a
-- row stands no heal, rollout, scale or failover acts on one of its slots; the health monitor writes it, proposes a
-- lights-out recovery (recovery: its process instance id) and deletes the row when enough slots serve again.
-- Plain SQL that H2 and PostgreSQL both accept. IF NOT EXISTS: this script was V13 on main for a short while, and a build
-- directory that still holds that copy runs both.
CREATE TABLE IF NOT EXISTS orch_set_outage (
    replica_set   VARCHAR(64)   NOT NULL,
    since         TIMESTAMP WITH TIME ZONE NOT NULL,
    down_slots    VARCHAR(2000) NOT NULL,
    budget        VARCHAR(200)  NOT NULL,
    recovery      VARCHAR(64),
    CONSTRAINT pk_orch_set_outage PRIMARY KEY (replica_set)
);
