-- The env encryption public key (app_env_encrypt_pubkey) Phala answered when we created a set's app: env rollouts
-- encrypt to it (docs/rollout.md, Env rollouts). Public: only the CVM holds the private key.
ALTER TABLE orch_replica_set ADD COLUMN env_encrypt_pubkey VARCHAR(130);
