package com.statefulcvm.fleet.adoption;

import java.util.List;

/**
 * One CVM of an app being adopted, as the survey saw it; nothing was changed to see it.
 *
 * @param ordinal       the slot it fills (by name or the fleet file's {@code members:}), null for none
 * @param dockerCompose the docker compose it publishes it runs, null when none could be read
 * @param envKeys       the names of its env variables (the app compose's {@code allowed_envs}); never their values
 * @param healthy       its health probe's answer, null when not probed (not running)
 * @param admitted      whether its evidence would be admitted, null when attestation is not asked for
 * @param admission     the admission's reason in words ("admitted", or the refusal's code and cause)
 * @param sequence      what its sequence endpoint reports for a lights-out recovery, null when it has none
 */
public record SurveyedCvm(Integer ordinal, String name, String id, String instanceId, String status, String composeHash,
                          String dockerCompose, List<String> envKeys, String node, String instanceType, String image,
                          Boolean healthy, String health, Boolean admitted, String admission, String sequence) {

    public boolean refused() {
        return Boolean.FALSE.equals(admitted);
    }
}
