-- Platforms (MRTD, RTMR0-2, 48 bytes each as hex) an approver pinned for a set after its instances were refused for
-- showing them; admission accepts them beside the fleet file's attestation.platforms.
CREATE TABLE orch_pinned_platform (
    replica_set   VARCHAR(64)   NOT NULL,
    mrtd          VARCHAR(96)   NOT NULL,
    rtmr0         VARCHAR(96)   NOT NULL,
    rtmr1         VARCHAR(96)   NOT NULL,
    rtmr2         VARCHAR(96)   NOT NULL,
    name          VARCHAR(128),
    pinned_by     VARCHAR(128)  NOT NULL,
    pinned_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    reason        VARCHAR(1000),
    CONSTRAINT pk_orch_pinned_platform PRIMARY KEY (replica_set, mrtd, rtmr0, rtmr1, rtmr2)
);
