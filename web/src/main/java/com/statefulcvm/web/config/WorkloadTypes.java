package com.statefulcvm.web.config;

import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.fleet.WorkloadType;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The workload types this application knows: the built-in descriptors and those under
 * {@code orchestrator.workload-types.<name>} (quorum, min-replicas, admin-port, role-probe, hold-back, hooks,
 * replacement-is-new-member, leader-handover), bound as Spring Boot binds any setting, an unknown key refused with where it was written. A
 * procedure of a type ({@code drain-<type>}, {@code rejoin-<type>}, {@code sequence-<type>} ...) among the files
 * deployed here whose type has no descriptor stops the start naming the file: without one its sets would get a
 * quorum of one and no scale minimum, the disruption budget protecting nothing.
 */
public final class WorkloadTypes {

    public static final String PREFIX = "orchestrator.workload-types";
    /** The procedures named after their workload type: the hooks and the lights-out sequence read. */
    private static final Pattern TYPED = Pattern.compile("^(drain|rejoin|sequence|add|join|leave)-([a-z][a-z0-9-]*)$");

    private WorkloadTypes() {
    }

    /**
     * @throws com.statefulcvm.fleet.FleetDefinitionException listing every problem: a key not of a descriptor, a value
     *                                                        that does not make sense, a type's diagram without one
     */
    public static WorkloadCatalog catalog(Environment environment, ProcedureResources procedures) {
        List<String> problems = new ArrayList<>();
        Map<String, WorkloadType> configured = Map.of();
        try {
            configured = Binder.get(environment).bind(PREFIX, Bindable.mapOf(String.class, WorkloadType.class),
                    new NoUnboundElementsBindHandler(BindHandler.DEFAULT)).orElse(Map.of());
        } catch (BindException e) {
            problems.addAll(problemsOf(e));
        }
        WorkloadCatalog catalog = WorkloadCatalog.BUILT_IN;
        if (problems.isEmpty()) {
            try {
                catalog = WorkloadCatalog.withConfigured(configured);
            } catch (IllegalArgumentException e) {
                List.of(e.getMessage().split("; ")).forEach(p -> problems.add(PREFIX + p.substring("workloadTypes".length())));
            }
        }
        problems.addAll(undeclared(catalog, procedures));
        problems.addAll(missingMembershipProcedures(catalog, procedures));
        if (!problems.isEmpty()) {
            throw new com.statefulcvm.fleet.FleetDefinitionException(problems);
        }
        return catalog;
    }

    /** Every deployed procedure of a workload type that has no descriptor, naming its file. */
    static List<String> undeclared(WorkloadCatalog catalog, ProcedureResources procedures) {
        List<String> problems = new ArrayList<>();
        for (ProcedureResources.Procedure procedure : procedures.effective()) {
            for (String id : procedure.processIds()) {
                Matcher m = TYPED.matcher(id);
                if (m.matches() && catalog.find(m.group(2)).isEmpty()) {
                    problems.add(procedure.origin() + ": process '" + id + "' is a procedure of workload type '" + m.group(2)
                            + "', which has no descriptor: declare it under " + PREFIX + "." + m.group(2)
                            + " (quorum, min-replicas, ...: docs/procedures.md)");
                }
            }
        }
        return problems;
    }

    /** A type whose replacement is a new member needs its leave, add and join procedures: a replace runs all three. */
    static List<String> missingMembershipProcedures(WorkloadCatalog catalog, ProcedureResources procedures) {
        java.util.Set<String> deployed = new java.util.HashSet<>();
        procedures.effective().forEach(p -> deployed.addAll(p.processIds()));
        List<String> problems = new ArrayList<>();
        for (String name : catalog.names()) {
            if (catalog.of(name).isReplacementIsNewMember()) {
                List<String> missing = java.util.stream.Stream.of("leave", "add", "join").map(h -> h + "-" + name + ".bpmn")
                        .filter(file -> !deployed.contains(file.substring(0, file.length() - ".bpmn".length()))).toList();
                if (!missing.isEmpty()) {
                    problems.add(PREFIX + "." + name + ".replacement-is-new-member: a replacement then runs the type's leave,"
                            + " add and join procedures, and " + String.join(", ", missing) + (missing.size() == 1 ? " is" : " are")
                            + " not among the deployed ones");
                }
            }
        }
        return problems;
    }

    private static List<String> problemsOf(BindException e) {
        List<String> problems = new ArrayList<>();
        if (e.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
            unbound.getUnboundProperties().forEach(p -> problems.add(p.getName() + ": unknown key of a workload type's descriptor"
                    + (p.getOrigin() == null ? "" : " (" + p.getOrigin() + ")")
                    + "; known: quorum, min-replicas, admin-port, role-probe.port, role-probe.path, hold-back, hooks, replacement-is-new-member, leader-handover"));
        } else {
            String where = e.getProperty() == null ? PREFIX : e.getProperty().getName()
                    + (e.getProperty().getOrigin() == null ? "" : " (" + e.getProperty().getOrigin() + ")");
            Throwable cause = e.getCause();
            while (cause != null && cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            problems.add(where + ": " + (cause == null ? e.getMessage() : cause.getMessage()));
        }
        return problems;
    }
}
