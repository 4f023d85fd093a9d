package com.statefulcvm.processes.diagram;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.FileVisitResult;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.statefulcvm.processes.diagram.DiagramRules.Problem;

/**
 * Every diagram we ship is valid BPMN 2.0 DI that draws the same in any BPMN tool (DiagramRules). The DI is
 * generated: after editing a process by hand or in the Modeler, run {@code node tools/bpmn-layout/layout.mjs} (see
 * tools/bpmn-layout/README.md) and this test passes again.
 */
class DiagramInterchangeTest {

    /** Surefire runs in the module directory: the repository is its parent. */
    static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> NOT_SOURCES = Set.of(".git", "target", "node_modules");

    /** Every .bpmn of the repository: the shipped processes, the examples in docs/, any added later. */
    static Stream<Path> diagrams() throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                return NOT_SOURCES.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (file.getFileName().toString().endsWith(".bpmn")) {
                    found.add(REPOSITORY.relativize(file));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found.stream().sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("diagrams")
    void drawsRightInAnyBpmnTool(Path diagram) {
        List<Problem> problems = DiagramRules.check(BpmnFile.read(REPOSITORY.resolve(diagram)));

        assertThat(problems).as("%s: run node tools/bpmn-layout/layout.mjs %s", diagram, diagram).isEmpty();
    }

    @Test
    void theShippedProcessesAndTheExamplesAreChecked() throws IOException {
        assertThat(diagrams().map(p -> p.toString().replace('\\', '/')))
                .contains("processes/src/main/resources/processes/rollout.bpmn", "docs/examples/hooks/drain-redis.bpmn")
                .hasSizeGreaterThan(30);
    }
}
