package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.delegates.support.EffectivePolicy;
import com.statefulcvm.fleet.FleetDefinitionException;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.UpdatePolicy;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;

/** A request's updatePolicy checked against the set before anything starts: the same rules as the fleet file. */
@Component
public class PolicyOverrides {

    private final EffectivePolicy policies;

    PolicyOverrides(EffectivePolicy policies) {
        this.policies = policies;
    }

    /** The policy the rollout would run under; 400 naming every bad field of the override. */
    UpdatePolicy effective(ReplicaSetSpec spec, String overrideJson) {
        try {
            return policies.of(spec, overrideJson);
        } catch (FleetDefinitionException e) {
            List<String> problems = e.problems();
            throw new ApiProblem(HttpStatus.BAD_REQUEST, String.join("; ", problems), Map.of("problems", problems));
        } catch (IllegalArgumentException e) {
            throw new ApiProblem(HttpStatus.BAD_REQUEST, e.getMessage());
        }
    }
}
