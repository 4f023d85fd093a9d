package com.statefulcvm.simulator.cloud;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import com.statefulcvm.simulator.api.EnvUpdateRequest;

/**
 * Changes to one CVM's compose or encrypted env: a change that alters nothing is no operation at all; a new compose
 * is a new revision of the app. Used only under {@link SimulatedCloud}'s lock.
 */
final class CvmUpdates {

    private final CvmDirectory directory;
    private final RevisionHistory revisions;
    private final OperationRunner runner;

    CvmUpdates(CvmDirectory directory, RevisionHistory revisions, OperationRunner runner) {
        this.directory = directory;
        this.revisions = revisions;
        this.runner = runner;
    }

    UpdateOutcome updateCompose(String ref, String dockerComposeFile, String preLaunchScript) {
        if (dockerComposeFile == null) {
            throw ApiException.missing("docker_compose_file");
        }
        SimulatedCvm cvm = directory.requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_COMPOSE);
        Map<String, Object> compose = new TreeMap<>(cvm.composeFile);
        compose.put("docker_compose_file", dockerComposeFile);
        if (preLaunchScript != null) {
            compose.put("pre_launch_script", preLaunchScript);
        }
        return apply(cvm, compose, cvm.encryptedEnv, cvm.envKeys, OperationType.UPDATE_COMPOSE);
    }

    /** A new set of {@code env_keys} also changes the compose's {@code allowed_envs}. */
    UpdateOutcome updateEnvs(String ref, EnvUpdateRequest request) {
        if (request == null) {
            throw ApiException.missing();
        }
        if (request.encryptedEnv() == null) {
            throw ApiException.missing("encrypted_env");
        }
        SimulatedCvm cvm = directory.requireCvm(ref);
        CvmLifecycle.checkAccepts(cvm, OperationType.UPDATE_ENV);
        Map<String, Object> compose = cvm.composeFile;
        List<String> envKeys = cvm.envKeys;
        if (request.envKeys() != null) {
            envKeys = request.envKeys().stream().filter(Objects::nonNull).toList();
            if (!new HashSet<>(envKeys).equals(new HashSet<>(allowedEnvs(cvm.composeFile)))) {
                compose = new TreeMap<>(cvm.composeFile);
                compose.put("allowed_envs", envKeys);
            }
        }
        return apply(cvm, compose, request.encryptedEnv(), envKeys, OperationType.UPDATE_ENV);
    }

    private UpdateOutcome apply(SimulatedCvm cvm, Map<String, Object> compose, String encryptedEnv,
            List<String> envKeys, OperationType type) {
        String composeHash = ComposeHasher.hash(compose);
        boolean composeChanged = !composeHash.equals(cvm.composeHash);
        boolean envChanged = !Objects.equals(encryptedEnv, cvm.encryptedEnv);
        boolean allowedEnvsChanged = !new HashSet<>(allowedEnvs(compose)).equals(
                new HashSet<>(allowedEnvs(cvm.composeFile)));
        if (!composeChanged && !envChanged) {
            return UpdateOutcome.noChange();
        }
        cvm.encryptedEnv = encryptedEnv;
        cvm.envKeys = envKeys;
        if (composeChanged) {
            cvm.composeFile = compose;
            cvm.composeHash = composeHash;
            revisions.record(directory.requireApp(cvm.appId), cvm, type.wireName());
        }
        String correlationId = Ids.uuid();
        runner.begin(cvm, type, null, correlationId);
        return UpdateOutcome.inProgress(correlationId, allowedEnvsChanged);
    }

    private static List<String> allowedEnvs(Map<String, Object> compose) {
        Object value = compose.get("allowed_envs");
        if (value instanceof Collection<?> list) {
            return list.stream().filter(Objects::nonNull).map(String::valueOf).toList();
        }
        return List.of();
    }
}
