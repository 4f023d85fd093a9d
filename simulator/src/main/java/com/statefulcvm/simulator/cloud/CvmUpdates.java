package com.statefulcvm.simulator.cloud;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.EnvUpdateRequest;

/**
 * Changes to one CVM's compose or encrypted env. Every accepted update is an operation (the CVM restarts), also one
 * identical to what the CVM has; a new compose hash is a new revision of the app. An on-chain KMS app's update to a
 * compose hash its contract has not registered answers 465 until it is committed with a transaction hash
 * ({@link OnChainCommits}). Used only under {@link SimulatedCloud}'s lock.
 */
final class CvmUpdates {

    private final CvmDirectory directory;
    private final RevisionHistory revisions;
    private final OperationRunner runner;
    private final OnChainCommits onChain;

    CvmUpdates(CvmDirectory directory, RevisionHistory revisions, OperationRunner runner, OnChainCommits onChain) {
        this.directory = directory;
        this.revisions = revisions;
        this.runner = runner;
        this.onChain = onChain;
    }

    /**
     * {@code PATCH /cvms/{id}/docker-compose}: the YAML body; {@code composeHash} and {@code transactionHash} are the
     * {@code X-Compose-Hash} and {@code X-Transaction-Hash} headers of phase 2 (null in phase 1 and off chain).
     */
    UpdateOutcome updateCompose(String ref, String dockerComposeFile, String composeHash, String transactionHash) {
        SimulatedCvm cvm = directory.requireCvm(ref);
        if (dockerComposeFile == null || dockerComposeFile.isBlank()) {
            throw ApiException.missing("docker_compose_file");
        }
        ComposeYaml.check(dockerComposeFile, "docker_compose_file");
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_COMPOSE);
        Map<String, Object> compose = new TreeMap<>(cvm.composeFile);
        compose.put("docker_compose_file", dockerComposeFile);
        Pending update = new Pending(cvm.vmUuid, compose, cvm.encryptedEnv, cvm.envKeys, OperationType.UPDATE_COMPOSE);
        requireOnChainRegistration(cvm, update, composeHash, transactionHash);
        return apply(cvm, update);
    }

    /**
     * {@code PATCH /cvms/{id}/envs}: the env must open with the app's key; a new set of {@code env_keys} also changes
     * the compose's {@code allowed_envs} (and so its hash).
     */
    UpdateOutcome updateEnvs(String ref, EnvUpdateRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.encryptedEnv() == null) {
            throw ApiException.missing("encrypted_env");
        }
        SimulatedCvm cvm = directory.requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_ENV);
        SimulatedKms.open(cvm.appId, request.encryptedEnv());
        Map<String, Object> compose = cvm.composeFile;
        List<String> envKeys = cvm.envKeys;
        if (request.envKeys() != null) {
            envKeys = request.envKeys().stream().filter(Objects::nonNull).toList();
            if (!new HashSet<>(envKeys).equals(new HashSet<>(allowedEnvs(cvm.composeFile)))) {
                compose = new TreeMap<>(cvm.composeFile);
                compose.put("allowed_envs", envKeys);
            }
        }
        Pending update = new Pending(cvm.vmUuid, compose, request.encryptedEnv(), envKeys, OperationType.UPDATE_ENV);
        requireOnChainRegistration(cvm, update, request.composeHash(), request.transactionHash());
        return apply(cvm, update);
    }

    /** {@code POST /cvms/{id}/commit-update}: phase 2 with the one-time token a 465 gave. */
    UpdateOutcome commitUpdate(String ref, String token, String composeHash, String transactionHash) {
        SimulatedCvm cvm = directory.requireCvm(ref);
        Pending update = onChain.take(directory.requireApp(cvm.appId), cvm, token, composeHash, transactionHash);
        CvmLifecycle.checkAccepts(cvm, update.type());
        directory.requireApp(cvm.appId).registeredComposeHashes.add(update.composeHash());
        return apply(cvm, update);
    }

    private void requireOnChainRegistration(SimulatedCvm cvm, Pending update, String composeHash, String transactionHash) {
        SimulatedApp app = directory.requireApp(cvm.appId);
        if (!app.onChainKms || update.composeHash().equals(cvm.composeHash)) {
            return;
        }
        if (transactionHash == null || transactionHash.isBlank()) {
            throw onChain.preconditionRequired(app, cvm, update);
        }
        onChain.checkCommit(app, update.composeHash(), composeHash, transactionHash);
        app.registeredComposeHashes.add(update.composeHash());
    }

    private UpdateOutcome apply(SimulatedCvm cvm, Pending update) {
        boolean composeChanged = !update.composeHash().equals(cvm.composeHash);
        boolean allowedEnvsChanged = !new HashSet<>(allowedEnvs(update.compose())).equals(
                new HashSet<>(allowedEnvs(cvm.composeFile)));
        cvm.encryptedEnv = update.encryptedEnv();
        cvm.envKeys = update.envKeys();
        if (composeChanged) {
            cvm.composeFile = update.compose();
            cvm.composeHash = update.composeHash();
        }
        // a revision is what the CVM is deployed with: a new env is a new revision even when the compose hash stays
        if (composeChanged || update.type() == OperationType.UPDATE_ENV) {
            revisions.record(directory.requireApp(cvm.appId), cvm, update.type().wireName());
        }
        String correlationId = Ids.uuid();
        runner.begin(cvm, update.type(), null, correlationId);
        return UpdateOutcome.inProgress(correlationId, allowedEnvsChanged);
    }

    static List<String> allowedEnvs(Map<String, Object> compose) {
        Object value = compose.get("allowed_envs");
        if (value instanceof Collection<?> list) {
            return list.stream().filter(Objects::nonNull).map(String::valueOf).toList();
        }
        return List.of();
    }

    /** An update as it would be applied: what a 465 holds back until its commit. */
    record Pending(String vmUuid, Map<String, Object> compose, String encryptedEnv, List<String> envKeys,
            OperationType type) {

        String composeHash() {
            return ComposeHasher.hash(compose);
        }
    }
}
