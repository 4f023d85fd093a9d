package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.support.EnvEncryptionKeys;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Map;

/**
 * Seals an env rollout's variables to the set's app key, in the memory of the request that brought them, before
 * anything is stored: what our API's rollout start and the start form's submit path ({@link StartFormEnvSealing}) both
 * do. Only a CVM of the app can open the result; the names stay readable (they are in the plan and the report).
 */
@Component
public class EnvSealer {

    private final EnvEncryptionKeys keys;

    EnvSealer(EnvEncryptionKeys keys) {
        this.keys = keys;
    }

    /** @throws ApiProblem 409 when the set has no key yet, or its key is not one */
    EnvEncryption.Sealed seal(ReplicaSetSpec spec, Map<String, String> envs) {
        String publicKey;
        try {
            publicKey = keys.publicKey(spec);
        } catch (IllegalStateException e) {
            throw new ApiProblem(HttpStatus.CONFLICT, e.getMessage());
        }
        try {
            return EnvEncryption.seal(envs, publicKey);
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(HttpStatus.CONFLICT, "envs: replica set '" + spec.getName() + "': " + e.getMessage());
        }
    }
}
