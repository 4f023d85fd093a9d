package com.statefulcvm.web.config;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The workload types a replica set may name: every type with both a drain and a rejoin procedure among the procedures
 * this application deploys ({@code drain-<type>} and {@code rejoin-<type>}, built in or dropped into the processes
 * directory: {@link ProcedureResources}), plus any named in {@code orchestrator.workload-types} for procedures deployed
 * another way (from the Modeler, through the REST API). Adding a type is adding its two diagrams; nothing else needs
 * to know, and nothing is rebuilt.
 */
public final class WorkloadTypes {

    private static final Pattern HOOK = Pattern.compile("^(drain|rejoin)-([a-z][a-z0-9-]*)$");

    private WorkloadTypes() {
    }

    public static Set<String> deployedWith(Set<String> configured, ProcedureResources procedures) {
        Set<String> drains = new TreeSet<>();
        Set<String> rejoins = new TreeSet<>();
        for (String id : procedures.processIds()) {
            Matcher m = HOOK.matcher(id);
            if (m.matches()) {
                (m.group(1).equals("drain") ? drains : rejoins).add(m.group(2));
            }
        }
        drains.retainAll(rejoins);
        drains.addAll(configured);
        return drains;
    }
}
