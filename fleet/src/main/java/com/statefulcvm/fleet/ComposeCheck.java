package com.statefulcvm.fleet;

import java.io.StringReader;
import java.util.Optional;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * The least a docker compose must be before any procedure rolls it out: YAML, a mapping at the top with a
 * {@code services} mapping, and every service with an {@code image} or a {@code build}. A compose that is not would be
 * taken by a rollout and fail on the service or inside the CVM half way through; here it is refused with the line and
 * the reason. Only the YAML's node tree is read: no tag is resolved and nothing is constructed, so a compose cannot
 * make this code do anything.
 */
public final class ComposeCheck {

    /** Deeper or larger than any compose, and small enough that a crafted document costs nothing. */
    private static final int MAX_ALIASES = 50;
    private static final int MAX_DEPTH = 64;

    private ComposeCheck() {
    }

    /** A reason the compose is refused, with the 1-based line it is about (0 when the text has none). */
    public record Problem(int line, String reason) {

        @Override
        public String toString() {
            return line > 0 ? "line " + line + ": " + reason : reason;
        }
    }

    /** @return the first problem found, or empty when the compose may be rolled out */
    public static Optional<Problem> problem(String compose) {
        if (compose == null || compose.isBlank()) {
            return Optional.of(new Problem(0, "the compose is empty"));
        }
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setMaxAliasesForCollections(MAX_ALIASES);
            options.setNestingDepthLimit(MAX_DEPTH);
            options.setAllowDuplicateKeys(false);
            root = new Yaml(options).compose(new StringReader(compose));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getMessage();
            return Optional.of(new Problem(mark == null ? 0 : mark.getLine() + 1, "not valid YAML: " + oneLine(what)));
        } catch (YAMLException e) {
            return Optional.of(new Problem(0, "not valid YAML: " + oneLine(e.getMessage())));
        }
        if (!(root instanceof MappingNode top)) {
            return Optional.of(new Problem(line(root), "the compose must be a mapping with a 'services' key"));
        }
        Optional<Problem> duplicate = duplicateKey(top);
        if (duplicate.isPresent()) {
            return duplicate;
        }
        NodeTuple services = entry(top, "services");
        if (services == null) {
            return Optional.of(new Problem(line(top), "the compose has no 'services'"));
        }
        if (!(services.getValueNode() instanceof MappingNode serviceMap) || serviceMap.getValue().isEmpty()) {
            return Optional.of(new Problem(line(services.getKeyNode()), "'services' must be a mapping of at least one service"));
        }
        duplicate = duplicateKey(serviceMap);
        if (duplicate.isPresent()) {
            return duplicate;
        }
        for (NodeTuple service : serviceMap.getValue()) {
            String name = scalar(service.getKeyNode());
            if (!(service.getValueNode() instanceof MappingNode definition)) {
                return Optional.of(new Problem(line(service.getKeyNode()), "service '" + name + "' must be a mapping"));
            }
            if (entry(definition, "image") == null && entry(definition, "build") == null) {
                return Optional.of(new Problem(line(service.getKeyNode()), "service '" + name + "' has neither 'image' nor 'build'"));
            }
        }
        return Optional.empty();
    }

    /** @throws IllegalArgumentException {@code "<field>: line N: reason"} when the compose is refused */
    public static void require(String field, String compose) {
        problem(compose).ifPresent(p -> {
            throw new IllegalArgumentException(field + ": " + p);
        });
    }

    /** YAML forbids a key twice in one mapping; a parser that keeps the last one would roll out something else. */
    private static Optional<Problem> duplicateKey(MappingNode map) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (NodeTuple tuple : map.getValue()) {
            String key = scalar(tuple.getKeyNode());
            if (!seen.add(key)) {
                return Optional.of(new Problem(line(tuple.getKeyNode()), "duplicate key '" + key + "'"));
            }
        }
        return Optional.empty();
    }

    private static NodeTuple entry(MappingNode map, String key) {
        for (NodeTuple tuple : map.getValue()) {
            if (key.equals(scalar(tuple.getKeyNode()))) {
                return tuple;
            }
        }
        return null;
    }

    private static String scalar(Node node) {
        return node instanceof ScalarNode s ? s.getValue() : String.valueOf(node);
    }

    private static int line(Node node) {
        return node == null || node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s+", " ").trim();
    }
}
