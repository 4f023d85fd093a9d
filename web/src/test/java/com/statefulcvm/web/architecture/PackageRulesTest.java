package com.statefulcvm.web.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Every package of the application's own modules depends on others one way only: a newcomer can read a package with
 * what it imports, never round in a circle. Each package is its own slice, so a cycle between a package and its
 * parent counts too.
 */
class PackageRulesTest {

    static final String PROCEDURE_HOME = "com.statefulcvm.delegates.procedure..";

    private static final JavaClasses APPLICATION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // under `mvn verify` a module's test fixtures arrive as its packaged test jar, not as test-classes
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("com.statefulcvm.connectors", "com.statefulcvm.fleet", "com.statefulcvm.registry", "com.statefulcvm.delegates",
                    "com.statefulcvm.web");

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("com.statefulcvm.(**)").should().beFreeOfCycles().check(APPLICATION);
    }

    @Test
    void theProcedureHomeDependsOnNoOtherDelegatesPackage() {
        noClasses().that().resideInAPackage(PROCEDURE_HOME)
                .should().dependOnClassesThat(resideInAPackage("com.statefulcvm.delegates..").and(resideOutsideOfPackage(PROCEDURE_HOME)))
                .because("every procedure's steps and our API use it: it sits below them all")
                .check(APPLICATION);
    }

    @Test
    void theRegistryDependsOnFleetAlone() {
        noClasses().that().resideInAPackage("com.statefulcvm.registry..")
                .should().dependOnClassesThat(resideInAPackage("com.statefulcvm..")
                        .and(resideOutsideOfPackage("com.statefulcvm.registry.."))
                        .and(resideOutsideOfPackage("com.statefulcvm.fleet..")))
                .because("the registry module stores fleet's records; the engine, the delegates and the app are above it")
                .check(APPLICATION);
    }
}
