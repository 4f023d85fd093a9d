package com.statefulcvm.web.security;

import com.statefulcvm.web.config.OrchestratorProperties;
import com.statefulcvm.web.config.ProcedureResources;
import com.statefulcvm.web.config.WorkloadTypes;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.FilterService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Groups;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.ProcessInstancePermissions;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.filter.Filter;
import org.camunda.bpm.engine.identity.Group;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The group {@value #GROUP} and exactly what an operator needs in the engine, created at start-up beside the admin
 * user (which the Camunda starter creates from {@code camunda.bpm.admin-user}; members of {@code camunda-admin} pass
 * every check). Idempotent: every start makes sure the grants below exist and adds what is missing; it never revokes
 * what an administrator granted in the Admin webapp. Users become operators by joining the group there.
 *
 * <p>On the process definitions of our procedures (every process this application deploys, {@link ProcedureResources}: rollout, run-hook, attest-instance, drain-/rejoin- of every type, ...; and the drain-/rejoin- procedures
 * of the types named in {@code orchestrator.workload-types}, deployed another way): read the definition, its
 * instances, their history, and read, claim and complete their tasks. On {@code rollout}, {@code heal}, {@code failover}, {@code scale} and {@code lights-out-recovery} only: start
 * instances and update them (pause, resume and abort are messages to the instance). Call
 * activities start the called procedures inside the engine, without a check of their own, so no operator needs to
 * start {@code run-hook} or a drain directly. Plus: create process instances (the engine asks for both), read the
 * Tasklist filter "All tasks", and open Tasklist and Cockpit.
 */
@Component
public class OperatorAuthorizations implements InitializingBean {

    public static final String GROUP = "operators";
    public static final String ROLLOUT = "rollout";
    /**
     * What an operator starts and controls directly: rollouts, heals on request (POST .../instances/{n}/heal), failovers
     * (POST .../failover) and scales (POST .../scale).
     */
    static final Set<String> STARTED_BY_OPERATORS = Set.of(ROLLOUT, "heal", "failover", "scale", "lights-out-recovery");
    private static final String ALL_TASKS_FILTER = "All tasks";
    private static final Logger log = LoggerFactory.getLogger(OperatorAuthorizations.class);

    static final List<Permission> READ_AND_WORK = List.of(ProcessDefinitionPermissions.READ,
            ProcessDefinitionPermissions.READ_INSTANCE, ProcessDefinitionPermissions.READ_HISTORY,
            ProcessDefinitionPermissions.READ_TASK, ProcessDefinitionPermissions.UPDATE_TASK);
    static final List<Permission> START_AND_CONTROL = List.of(ProcessDefinitionPermissions.CREATE_INSTANCE,
            ProcessDefinitionPermissions.UPDATE_INSTANCE);

    private final IdentityService identity;
    private final AuthorizationService authorizations;
    private final FilterService filters;
    private final OrchestratorProperties properties;
    private final ProcedureResources resources;

    public OperatorAuthorizations(ProcessEngine engine, OrchestratorProperties properties, ProcedureResources resources) {
        this.resources = resources;
        this.identity = engine.getIdentityService();
        this.authorizations = engine.getAuthorizationService();
        this.filters = engine.getFilterService();
        this.properties = properties;
    }

    /**
     * Runs once the engine is built (admin user and filter exist), before the web server takes requests. Nodes that
     * start together on one database may both try to create the group or a grant: the loser's insert fails on the
     * engine's unique constraints only once the winner has committed (the database holds it until then), so its next
     * attempt, at once, finds the winner's rows.
     */
    @Override
    public void afterPropertiesSet() {
        for (int attempt = 1; ; attempt++) {
            try {
                setUp();
                return;
            } catch (RuntimeException concurrentNode) {
                if (attempt >= 3) {
                    throw concurrentNode;
                }
                log.info("Setting up the group '{}' failed ({}); trying again", GROUP, concurrentNode.getClass().getSimpleName());
            }
        }
    }

    private void setUp() {
        if (identity.createGroupQuery().groupId(GROUP).count() == 0) {
            Group group = identity.newGroup(GROUP);
            group.setName("Operators: start and control rollouts, decide approvals");
            group.setType(Groups.GROUP_TYPE_WORKFLOW);
            identity.saveGroup(group);
            log.info("Created the group '{}'; add users to it in the Admin webapp to let them start rollouts and decide approvals", GROUP);
        }
        for (String key : procedures()) {
            List<Permission> permissions = new ArrayList<>(READ_AND_WORK);
            if (STARTED_BY_OPERATORS.contains(key)) {
                permissions.addAll(START_AND_CONTROL);
            }
            grant(Resources.PROCESS_DEFINITION, key, permissions);
        }
        grant(Resources.PROCESS_INSTANCE, Authorization.ANY, List.of(ProcessInstancePermissions.CREATE));
        grant(Resources.APPLICATION, "tasklist", List.of(Permissions.ACCESS));
        grant(Resources.APPLICATION, "cockpit", List.of(Permissions.ACCESS));
        for (Filter filter : filters.createFilterQuery().filterName(ALL_TASKS_FILTER).list()) {
            grant(Resources.FILTER, filter.getId(), List.of(Permissions.READ));
        }
    }

    /** Our procedures: those this application deploys, and the drain and rejoin procedures of every workload type. */
    Set<String> procedures() {
        Set<String> keys = new TreeSet<>();
        keys.add(ROLLOUT);
        keys.addAll(resources.processIds());
        for (String type : WorkloadTypes.deployedWith(properties.getWorkloadTypes(), resources)) {
            keys.add("drain-" + type);
            keys.add("rejoin-" + type);
        }
        return keys;
    }

    private void grant(Resource resource, String resourceId, List<Permission> permissions) {
        Authorization existing = authorizations.createAuthorizationQuery()
                .authorizationType(Authorization.AUTH_TYPE_GRANT)
                .groupIdIn(GROUP)
                .resourceType(resource)
                .resourceId(resourceId)
                .singleResult();
        Authorization grant = existing != null ? existing : authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
        if (existing == null) {
            grant.setGroupId(GROUP);
            grant.setResource(resource);
            grant.setResourceId(resourceId);
        }
        boolean changed = existing == null;
        for (Permission permission : permissions) {
            if (!grant.isPermissionGranted(permission)) {
                grant.addPermission(permission);
                changed = true;
            }
        }
        if (changed) {
            authorizations.saveAuthorization(grant);
        }
    }
}
