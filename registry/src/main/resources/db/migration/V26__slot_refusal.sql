-- A slot whose instance failed attestation when fencing it would have taken the set past its disruption budget: the
-- instance keeps running, unadmitted, until an approver fences it, pins the platform it showed, or it is admitted.
-- platform: the measurements the refused evidence showed, for the approver to compare with the pinned ones.
-- running_compose: the docker compose the instance runs when it was refused for running one none of our revisions has
-- (changed behind our back), as its attested app compose shows it: the drift an approver may adopt as a revision.
CREATE TABLE orch_slot_refusal (
    replica_set   VARCHAR(64)   NOT NULL,
    ordinal       INT           NOT NULL,
    instance_id   VARCHAR(64),
    code          VARCHAR(64)   NOT NULL,
    reason        VARCHAR(1000) NOT NULL,
    platform      VARCHAR(1000),
    running_compose VARCHAR(262144),
    refused_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    refused_by    VARCHAR(128),
    CONSTRAINT pk_orch_slot_refusal PRIMARY KEY (replica_set, ordinal)
);

-- The set's take-down decisions (a fence, a procedure's take-down) take turns: each holds its set's row lock (an
-- UPDATE) while it judges the disruption budget and acts, so two cannot both see room for one more slot down.
CREATE TABLE orch_takedown_lock (
    replica_set  VARCHAR(64)  NOT NULL,
    locked_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    locked_by    VARCHAR(255),
    CONSTRAINT pk_orch_takedown_lock PRIMARY KEY (replica_set)
);
