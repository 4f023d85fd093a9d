package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.connectors.phala.EnvEncryption;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * How a sealed env reaches the rollout's start check without being a variable anyone could set: whoever sealed it
 * (our API, the start form's submit path) hands it over on the thread that starts the rollout, the start check takes it
 * as the process instance starts, in the same request. A variable a caller sends instead is refused by the start
 * check, so every env the procedure gets was sealed here, from names and values an operator gave, and nothing of it
 * but ciphertext and names is ever stored.
 */
@Component
class SealedEnvHandover {

    private record Handed(String replicaSet, EnvEncryption.Sealed env) {
    }

    /** Something that starts a rollout and may fail as the caller's request does. */
    interface Start<T, E extends Exception> {
        T run() throws E;
    }

    private final ThreadLocal<Handed> current = new ThreadLocal<>();

    /** Runs {@code start} with {@code env} handed over to the rollout of {@code replicaSet} it starts. */
    <T, E extends Exception> T during(String replicaSet, EnvEncryption.Sealed env, Start<T, E> start) throws E {
        current.set(new Handed(replicaSet, env));
        try {
            return start.run();
        } finally {
            current.remove();
        }
    }

    /** The env handed over for this start of a rollout of {@code replicaSet}; taken once. */
    Optional<EnvEncryption.Sealed> take(String replicaSet) {
        Handed handed = current.get();
        if (handed == null) {
            return Optional.empty();
        }
        current.remove();
        if (!handed.replicaSet().equals(replicaSet)) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "envs: sealed to the key of replica set '" + handed.replicaSet()
                    + "', but the rollout is of '" + replicaSet + "'");
        }
        return Optional.of(handed.env());
    }
}
