package com.statefulcvm.web.e2e;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replica sets of the demo fleet, {@code config/fleet.yaml}, as the application reads them at start-up, for a test
 * that must show the demo itself works: every field as the file says, except that compose files are found from
 * {@code web/} (where the tests run) and health is probed every second with one second of min-ready, so a rollout
 * takes seconds instead of minutes. The sets become {@code orchestrator.fleet.replica-sets[i]} in one property source
 * (Spring Boot binds a list from a single source).
 */
final class DemoFleet {

    static final Path FLEET_FILE = Path.of("..", "config", "fleet.yaml");

    private DemoFleet() {
    }

    static void register(DynamicPropertyRegistry registry, String... sets) {
        Map<String, Object> byName = new LinkedHashMap<>();
        for (Map<String, Object> set : replicaSets()) {
            byName.put(String.valueOf(set.get("name")), set);
        }
        for (int i = 0; i < sets.length; i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> set = (Map<String, Object>) byName.get(sets[i]);
            if (set == null) {
                throw new IllegalArgumentException("no replica set '" + sets[i] + "' in " + FLEET_FILE);
            }
            Map<String, String> flat = new LinkedHashMap<>();
            flatten("orchestrator.fleet.replica-sets[" + i + "]", withFastProbes(set), flat);
            flat.forEach((key, value) -> registry.add(key, () -> value));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> replicaSets() {
        try (Reader reader = Files.newBufferedReader(FLEET_FILE)) {
            Map<String, Object> root = new Yaml().load(reader);
            Map<String, Object> fleet = (Map<String, Object>) ((Map<String, Object>) root.get("orchestrator")).get("fleet");
            return (List<Map<String, Object>>) fleet.get("replica-sets");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the demo fleet " + FLEET_FILE.toAbsolutePath(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withFastProbes(Map<String, Object> set) {
        Map<String, Object> copy = new LinkedHashMap<>(set);
        if (copy.get("compose-file") != null) {
            copy.put("compose-file", Path.of("..").resolve(String.valueOf(copy.get("compose-file"))).toString());
        }
        Map<String, Object> health = new LinkedHashMap<>((Map<String, Object>) copy.getOrDefault("health-check", Map.of()));
        health.put("interval-seconds", 1);
        health.put("timeout-seconds", 1);
        copy.put("health-check", health);
        Map<String, Object> policy = new LinkedHashMap<>((Map<String, Object>) copy.getOrDefault("update-policy", Map.of()));
        policy.put("min-ready-seconds", 1);
        copy.put("update-policy", policy);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object value, Map<String, String> into) {
        if (value instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).forEach((key, nested) -> flatten(prefix + "." + key, nested, into));
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + "[" + i + "]", list.get(i), into);
            }
        } else if (value != null) {
            into.put(prefix, String.valueOf(value));
        }
    }
}
