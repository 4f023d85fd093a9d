package com.statefulcvm.web.api;

import com.statefulcvm.fleet.ReplicaSetSpec;
import org.springframework.http.HttpStatus;

/** The {@code {ordinal}} of an instance path, checked the same way by every instance endpoint. */
public final class Ordinals {

    private Ordinals() {
    }

    public static int parse(ReplicaSetSpec spec, String text) {
        int ordinal;
        try {
            ordinal = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "ordinal: must be a number, was '" + text + "'");
        }
        if (ordinal < 0 || ordinal >= spec.getReplicas()) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, "ordinal: must be between 0 and " + (spec.getReplicas() - 1)
                    + " (replica set '" + spec.getName() + "' has " + spec.getReplicas() + " replicas), was " + ordinal);
        }
        return ordinal;
    }
}
