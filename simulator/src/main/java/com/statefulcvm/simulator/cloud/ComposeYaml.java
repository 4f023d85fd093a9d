package com.statefulcvm.simulator.cloud;

import java.util.List;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A docker compose must at least be YAML whose top is a mapping: a text that is not cannot be run by the CVM's
 * docker-compose, so it is refused where it enters (422, FastAPI's validation shape) instead of failing at boot.
 */
final class ComposeYaml {

    private ComposeYaml() {
    }

    static void check(String text, String field) {
        Object parsed;
        try {
            parsed = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        } catch (YAMLException e) {
            throw ApiException.unprocessable(List.of("body", field), "Invalid YAML: " + oneLine(e.getMessage()),
                    "value_error");
        }
        if (!(parsed instanceof java.util.Map<?, ?>)) {
            throw ApiException.unprocessable(List.of("body", field), "docker compose must be a YAML mapping",
                    "value_error");
        }
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s+", " ").trim();
    }
}
