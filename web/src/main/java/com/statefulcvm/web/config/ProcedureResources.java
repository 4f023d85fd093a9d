package com.statefulcvm.web.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.dmn.Dmn;
import org.camunda.bpm.model.dmn.instance.Decision;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The procedures this application deploys: the built-in BPMN, DMN and forms of {@code processes/} on the classpath,
 * and those in the processes directory beside the fleet file ({@code orchestrator.processes-dir}, by default
 * {@code config/processes/}). A file of the directory whose process, decision or form id is a built-in's takes that
 * built-in's place: the built-in is not deployed. So an operator edits a procedure, or adds a workload type's, by
 * dropping a file there and restarting; nothing is rebuilt.
 */
public final class ProcedureResources {

    private static final String BUILT_IN = "classpath*:processes/**/*.";
    private static final List<String> KINDS = List.of("bpmn", "dmn", "form");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One deployable file: its name in the deployment ({@code processes/rollout.bpmn}, {@code config-processes/x.bpmn}),
     * its bytes, where it came from, and the ids it defines ({@code process:rollout}, {@code decision:x}, {@code form:y}).
     */
    public record Procedure(String name, byte[] content, boolean fromDirectory, String origin, Set<String> keys) {

        public Set<String> processIds() {
            return idsOf("process:");
        }

        private Set<String> idsOf(String kind) {
            Set<String> ids = new LinkedHashSet<>();
            keys.stream().filter(k -> k.startsWith(kind)).forEach(k -> ids.add(k.substring(kind.length())));
            return ids;
        }
    }

    private final List<Procedure> builtIn;
    private final List<Procedure> directory;
    private final Path dir;

    private ProcedureResources(List<Procedure> builtIn, List<Procedure> directory, Path dir) {
        this.builtIn = builtIn;
        this.directory = directory;
        this.dir = dir;
    }

    /** Reads both places now; a file that is not a valid BPMN, DMN or form stops the start, naming it. */
    public static ProcedureResources read(String processesDir) {
        Path dir = processesDir == null || processesDir.isBlank() ? null : Path.of(processesDir);
        return new ProcedureResources(builtIns(), directory(dir), dir);
    }

    /** What is deployed: every file of the directory, and every built-in none of them replaces. */
    public List<Procedure> effective() {
        Set<String> replaced = new LinkedHashSet<>();
        directory.forEach(p -> replaced.addAll(p.keys()));
        List<Procedure> out = new ArrayList<>();
        builtIn.stream().filter(p -> p.keys().stream().noneMatch(replaced::contains)).forEach(out::add);
        out.addAll(directory);
        return out;
    }

    /** The built-ins a file of the directory replaces, for the start-up log. */
    public List<Procedure> replacedBuiltIns() {
        Set<String> replacing = new LinkedHashSet<>();
        directory.forEach(p -> replacing.addAll(p.keys()));
        return builtIn.stream().filter(p -> p.keys().stream().anyMatch(replacing::contains)).toList();
    }

    /** The process ids of everything deployed from here. */
    public Set<String> processIds() {
        Set<String> ids = new LinkedHashSet<>();
        effective().forEach(p -> ids.addAll(p.processIds()));
        return ids;
    }

    public Path directory() {
        return dir;
    }

    private static List<Procedure> builtIns() {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
        List<Procedure> out = new ArrayList<>();
        try {
            for (String kind : KINDS) {
                for (Resource resource : resolver.getResources(BUILT_IN + kind)) {
                    if (!resource.isReadable()) {
                        continue;
                    }
                    try (InputStream in = resource.getInputStream()) {
                        // one name whether the jar or a build directory holds it: a redeploy compares like with like
                        out.add(procedure("processes/" + resource.getFilename(), in.readAllBytes(), false, String.valueOf(resource.getURL())));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in procedures under processes/", e);
        }
        out.sort(Comparator.comparing(Procedure::name));
        return out;
    }

    private static List<Procedure> directory(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        List<Procedure> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = file.getFileName().toString();
                String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
                if (KINDS.contains(extension)) {
                    out.add(procedure("config-processes/" + name, Files.readAllBytes(file), true, file.toAbsolutePath().toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the procedures in " + dir.toAbsolutePath(), e);
        }
        return out;
    }

    private static Procedure procedure(String name, byte[] content, boolean fromDirectory, String origin) {
        Set<String> keys = new LinkedHashSet<>();
        try {
            if (name.endsWith(".bpmn")) {
                Bpmn.readModelFromStream(new ByteArrayInputStream(content)).getModelElementsByType(Process.class)
                        .forEach(p -> keys.add("process:" + p.getId()));
            } else if (name.endsWith(".dmn")) {
                Dmn.readModelFromStream(new ByteArrayInputStream(content)).getModelElementsByType(Decision.class)
                        .forEach(d -> keys.add("decision:" + d.getId()));
            } else {
                JsonNode form = JSON.readTree(content);
                if (form == null || !form.path("id").isTextual()) {
                    throw new IllegalArgumentException("a Camunda Form needs its \"id\"");
                }
                keys.add("form:" + form.get("id").asText());
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("procedure " + origin + " cannot be read: " + e.getMessage(), e);
        }
        return new Procedure(name, content, fromDirectory, origin, keys);
    }
}
