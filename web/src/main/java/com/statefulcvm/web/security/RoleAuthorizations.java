package com.statefulcvm.web.security;

import com.statefulcvm.delegates.procedure.AdoptionVariables;
import com.statefulcvm.delegates.procedure.FailoverVariables;
import com.statefulcvm.delegates.procedure.HealVariables;
import com.statefulcvm.delegates.procedure.LightsOutVariables;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.procedure.ScaleVariables;
import com.statefulcvm.fleet.WorkloadCatalog;
import com.statefulcvm.web.config.ProcedureResources;
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
import org.camunda.bpm.engine.impl.util.ResourceTypeUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The groups {@value Roles#VIEWERS}, {@value Roles#OPERATORS} and {@value Roles#APPROVERS} and exactly what each needs
 * in the engine, created at start-up beside the admin user (which the Camunda starter creates from
 * {@code camunda.bpm.admin-user}; members of {@code camunda-admin} pass every check). Every start makes each group's
 * grant on each resource below exactly the documented one: what is missing is added, and a permission an earlier
 * version or an administrator put there is taken back (with a WARN), because one stray UPDATE_INSTANCE would let an
 * operator write variables and modify instances past every approval. A group an administrator creates is never
 * touched. Users get a role by joining its group (Admin webapp, or the engine's REST API).
 *
 * <p>On the process definitions of our procedures (every process this application deploys, built in or from the
 * processes directory: {@link ProcedureResources}, and the drain-/rejoin- procedures of every workload type with a descriptor, built in or in {@code orchestrator.workload-types}), every role
 * reads the definition, its instances, their history and their tasks. Operators also start {@code rollout},
 * {@code heal}, {@code failover}, {@code scale}, {@code lights-out-recovery} and {@code adopt-replica-set} (CREATE_INSTANCE, and CREATE on
 * process instances: the engine asks for both); pause, resume and abort go through our API, which checks the role and
 * sends the message as the application. Approvers also claim and complete tasks (TASK_WORK: no variable writes, and
 * the completion itself accepts only the form's fields, ClosedTaskCompletions). Nobody but an admin updates, deletes,
 * modifies or migrates instances, writes variables or retries jobs. Each role reads the Tasklist filter "All tasks"
 * and opens Tasklist and Cockpit. Call activities start the called procedures inside the engine, without a check of
 * their own, so nobody needs to start {@code run-hook} or a drain directly.
 */
@Component
public class RoleAuthorizations implements InitializingBean {

    /** What an operator starts directly: rollouts, heals (and readmits), failovers, scales, lights-out recoveries, adoptions. */
    static final Set<String> STARTED_BY_OPERATORS = Set.of(RolloutVariables.PROCESS_KEY, HealVariables.HEAL_PROCESS,
            FailoverVariables.PROCESS_KEY, ScaleVariables.PROCESS_KEY, LightsOutVariables.PROCESS_KEY, AdoptionVariables.PROCESS_KEY);
    private static final String ALL_TASKS_FILTER = "All tasks";
    private static final Logger log = LoggerFactory.getLogger(RoleAuthorizations.class);

    static final List<Permission> READ = List.of(ProcessDefinitionPermissions.READ,
            ProcessDefinitionPermissions.READ_INSTANCE, ProcessDefinitionPermissions.READ_HISTORY,
            ProcessDefinitionPermissions.READ_TASK);
    static final List<Permission> START = List.of(ProcessDefinitionPermissions.CREATE_INSTANCE);
    static final List<Permission> DECIDE = List.of(ProcessDefinitionPermissions.TASK_WORK);

    private static final Map<String, String> NAMES = Map.of(
            Roles.VIEWERS, "Viewers: read the fleet, the procedures and their history",
            Roles.OPERATORS, "Operators: start, pause, resume and abort procedures",
            Roles.APPROVERS, "Approvers: decide the approvals of procedures");

    private final IdentityService identity;
    private final AuthorizationService authorizations;
    private final FilterService filters;
    private final WorkloadCatalog workloadTypes;
    private final ProcedureResources resources;

    public RoleAuthorizations(ProcessEngine engine, WorkloadCatalog workloadTypes, ProcedureResources resources) {
        this.resources = resources;
        this.identity = engine.getIdentityService();
        this.authorizations = engine.getAuthorizationService();
        this.filters = engine.getFilterService();
        this.workloadTypes = workloadTypes;
    }

    /**
     * Runs once the engine is built (admin user and filter exist), before the web server takes requests. Nodes that
     * start together on one database may both try to create a group or a grant: the loser's insert fails on the
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
                log.info("Setting up the role groups failed ({}); trying again", concurrentNode.getClass().getSimpleName());
            }
        }
    }

    /** Each role's grants: resource type and id → permissions, in a stable order (what docs/configuration.md lists). */
    Map<String, Map<Grant, List<Permission>>> grants() {
        Set<String> procedures = procedures();
        Map<String, Map<Grant, List<Permission>>> all = new LinkedHashMap<>();
        for (String group : List.of(Roles.VIEWERS, Roles.OPERATORS, Roles.APPROVERS)) {
            Map<Grant, List<Permission>> grants = new LinkedHashMap<>();
            for (String key : procedures) {
                List<Permission> permissions = new ArrayList<>(READ);
                if (Roles.OPERATORS.equals(group) && STARTED_BY_OPERATORS.contains(key)) {
                    permissions.addAll(START);
                }
                if (Roles.APPROVERS.equals(group)) {
                    permissions.addAll(DECIDE);
                }
                grants.put(new Grant(Resources.PROCESS_DEFINITION, key), permissions);
            }
            if (Roles.OPERATORS.equals(group)) {
                grants.put(new Grant(Resources.PROCESS_INSTANCE, Authorization.ANY), List.of(ProcessInstancePermissions.CREATE));
            }
            grants.put(new Grant(Resources.APPLICATION, "tasklist"), List.of(Permissions.ACCESS));
            grants.put(new Grant(Resources.APPLICATION, "cockpit"), List.of(Permissions.ACCESS));
            for (Filter filter : filters.createFilterQuery().filterName(ALL_TASKS_FILTER).list()) {
                grants.put(new Grant(Resources.FILTER, filter.getId()), List.of(Permissions.READ));
            }
            all.put(group, grants);
        }
        return all;
    }

    record Grant(Resource resource, String resourceId) {
    }

    private void setUp() {
        grants().forEach((group, grants) -> {
            ensureGroup(group);
            grants.forEach((grant, permissions) -> grantExactly(group, grant, permissions));
        });
        // Before approvers existed, the engine gave operators (then the approval tasks' candidate group) UPDATE on each
        // task it created: enough to write the process's variables through the task. Those grants go.
        for (Authorization stale : authorizations.createAuthorizationQuery().groupIdIn(Roles.OPERATORS)
                .resourceType(Resources.TASK).list()) {
            authorizations.deleteAuthorization(stale.getId());
        }
    }

    private void ensureGroup(String id) {
        if (identity.createGroupQuery().groupId(id).count() == 0) {
            Group group = identity.newGroup(id);
            group.setName(NAMES.get(id));
            group.setType(Groups.GROUP_TYPE_WORKFLOW);
            identity.saveGroup(group);
            log.info("Created the group '{}' ({}); add users to it in the Admin webapp", id, NAMES.get(id));
        }
    }

    /** Our procedures: those this application deploys, and the drain and rejoin procedures of every workload type. */
    Set<String> procedures() {
        Set<String> keys = new TreeSet<>();
        keys.add(RolloutVariables.PROCESS_KEY);
        keys.addAll(resources.processIds());
        for (String type : workloadTypes.names()) {
            keys.add("drain-" + type);
            keys.add("rejoin-" + type);
        }
        return keys;
    }

    private void grantExactly(String group, Grant wanted, List<Permission> permissions) {
        Authorization existing = authorizations.createAuthorizationQuery()
                .authorizationType(Authorization.AUTH_TYPE_GRANT)
                .groupIdIn(group)
                .resourceType(wanted.resource())
                .resourceId(wanted.resourceId())
                .singleResult();
        Authorization grant = existing != null ? existing : authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
        if (existing == null) {
            grant.setGroupId(group);
            grant.setResource(wanted.resource());
            grant.setResourceId(wanted.resourceId());
        } else {
            Permission[] known = ResourceTypeUtil.getPermissionsByResourceType(wanted.resource().resourceType());
            Set<String> allowed = names(permissions.toArray(Permission[]::new));
            Set<String> had = names(existing.getPermissions(known));
            had.remove(Permissions.NONE.getName());
            if (had.equals(allowed)) {
                return;
            }
            had.removeAll(allowed);
            if (!had.isEmpty()) {
                log.warn("Took back {} from the group '{}' on {} {}: the role holds exactly {} there (docs/configuration.md)",
                        had, group, wanted.resource().resourceName(), wanted.resourceId(), allowed);
            }
        }
        grant.setPermissions(permissions.toArray(Permission[]::new));
        authorizations.saveAuthorization(grant);
    }

    private static Set<String> names(Permission[] permissions) {
        Set<String> names = new LinkedHashSet<>();
        Arrays.stream(permissions).map(Permission::getName).forEach(names::add);
        return names;
    }
}
