package com.statefulcvm.web.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The procedures' variable names are written down once, in {@code delegates/.../procedure} (the *Variables classes):
 * the delegates and our API name a variable by its constant there, never by a string literal of their own, so that a
 * renamed variable is renamed everywhere and a newcomer finds every name of a procedure in one file. Checked on the
 * main sources of delegates and web: no engine variable call with a literal name, and no constant of another class
 * that spells a name the home declares.
 */
class ProcedureVocabularyTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Path HOME = REPOSITORY.resolve("delegates/src/main/java/com/statefulcvm/delegates/procedure");
    private static final List<Path> USERS = List.of(REPOSITORY.resolve("delegates/src/main/java"), REPOSITORY.resolve("web/src/main/java"));

    /**
     * A call that reads, writes or queries a variable, with a string literal as the variable's name: the first argument
     * (a getter's may follow an execution or task id; a setter's second argument is the value, not a name).
     */
    private static final Pattern LITERAL_VARIABLE_CALL = Pattern.compile(
            "\\b(?:(?:get|has|remove)Variable(?:Local|Typed)?\\(\\s*(?:[\\w.]+(?:\\(\\))?\\s*,\\s*)?"
                    + "|(?:setVariable(?:Local)?|variableName(?:In|Like)?|variableValueEquals|putValue|variables\\.put)\\(\\s*)"
                    + "\"([A-Za-z]\\w*)\"");
    private static final Pattern NAME_DECLARATION = Pattern.compile("static final String (\\w+) = \"([A-Za-z]\\w*)\";");

    @Test
    void noVariableIsNamedByALiteralOutsideTheProcedureHome() {
        List<String> found = new ArrayList<>();
        for (Path source : sourcesOutsideTheHome()) {
            Matcher m = LITERAL_VARIABLE_CALL.matcher(read(source));
            while (m.find()) {
                found.add(REPOSITORY.relativize(source) + ": \"" + m.group(1) + "\"");
            }
        }
        assertThat(found).as("variable names written as literals (use the constant of delegates/.../procedure)").isEmpty();
    }

    @Test
    void noOtherClassDeclaresANameTheHomeDeclares() {
        Set<String> names = homeNames();
        assertThat(names).as("the home's names").contains("replicaSet", "slot", "targetCompose", "healTrigger", "scaleDirection", "composeChangeSlots");
        List<String> found = new ArrayList<>();
        for (Path source : sourcesOutsideTheHome()) {
            Matcher m = NAME_DECLARATION.matcher(read(source));
            while (m.find()) {
                if (names.contains(m.group(2))) {
                    found.add(REPOSITORY.relativize(source) + ": " + m.group(1) + " = \"" + m.group(2) + "\"");
                }
            }
        }
        assertThat(found).as("variable names declared a second time outside delegates/.../procedure").isEmpty();
    }

    @Test
    void theCheckSeesALiteralCall() {
        assertThat(LITERAL_VARIABLE_CALL.matcher("execution.setVariableLocal(\"stage\", text)").find()).isTrue();
        assertThat(LITERAL_VARIABLE_CALL.matcher("runtime.createVariableInstanceQuery().variableNameIn(\"wave\", \"slot\")").find()).isTrue();
        assertThat(LITERAL_VARIABLE_CALL.matcher("runtime.getVariable(executionId, \"slot\")").find()).isTrue();
        assertThat(LITERAL_VARIABLE_CALL.matcher("execution.getVariable(RolloutVariables.SLOT)").find()).isFalse();
        assertThat(LITERAL_VARIABLE_CALL.matcher("execution.setVariable(HealVariables.HEAL_RESULT, \"stopped\")").find()).isFalse();
        assertThat(LITERAL_VARIABLE_CALL.matcher("Objects.toString(execution.getVariable(WORKLOAD_TYPE), \"generic\")").find()).isFalse();
        assertThat(LITERAL_VARIABLE_CALL.matcher("runtime.getVariable(task.getExecutionId(), \"slot\")").find()).isTrue();
    }

    private static Set<String> homeNames() {
        Set<String> names = new TreeSet<>();
        for (Path source : javaFiles(HOME)) {
            if (source.getFileName().toString().endsWith("Variables.java")) {
                Matcher m = NAME_DECLARATION.matcher(read(source));
                while (m.find()) {
                    names.add(m.group(2));
                }
            }
        }
        return names;
    }

    private static List<Path> sourcesOutsideTheHome() {
        List<Path> out = new ArrayList<>();
        USERS.forEach(root -> javaFiles(root).stream().filter(p -> !p.startsWith(HOME)).forEach(out::add));
        assertThat(out).as("main sources of delegates and web").hasSizeGreaterThan(100);
        return out;
    }

    private static List<Path> javaFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
