package com.statefulcvm.web.security;

import org.camunda.bpm.engine.authorization.Groups;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;

import java.util.List;

/**
 * The four roles of this deployment, each a Camunda group (an admin makes a user one by adding it to the group):
 * {@value #VIEWERS} read, {@value #OPERATORS} start and control procedures, {@value #APPROVERS} decide their approvals,
 * and Camunda's own {@value #ADMINS} may do everything, engine internals included. {@link RoleAuthorizations} gives
 * the first three their exact grants at start-up; docs/configuration.md lists them.
 */
public final class Roles {

    public static final String VIEWERS = "viewers";
    public static final String OPERATORS = "operators";
    public static final String APPROVERS = "approvers";
    public static final String ADMINS = Groups.CAMUNDA_ADMIN;

    private Roles() {
    }

    /** Members of the engine's admin groups and its admin users pass every check, as in the engine itself. */
    public static boolean isAdmin(ProcessEngineConfigurationImpl configuration, Authentication caller) {
        if (caller == null || caller.getUserId() == null) {
            return false;
        }
        List<String> adminUsers = configuration.getAdminUsers();
        List<String> adminGroups = configuration.getAdminGroups();
        if (adminUsers != null && adminUsers.contains(caller.getUserId())) {
            return true;
        }
        return adminGroups != null && caller.getGroupIds() != null && caller.getGroupIds().stream().anyMatch(adminGroups::contains);
    }

    /** A member of {@code group}, or an admin. */
    public static boolean holds(ProcessEngineConfigurationImpl configuration, Authentication caller, String group) {
        return isAdmin(configuration, caller)
                || caller != null && caller.getGroupIds() != null && caller.getGroupIds().contains(group);
    }
}
