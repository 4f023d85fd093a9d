-- The attestation verdict for the CVM's current boot, kept apart from the free-text condition so that later
-- health probes cannot overwrite it.
ALTER TABLE orch_instance ADD COLUMN attested BOOLEAN;
ALTER TABLE orch_instance ADD COLUMN attestation VARCHAR(1000);
ALTER TABLE orch_instance ADD COLUMN attested_at TIMESTAMP WITH TIME ZONE;
