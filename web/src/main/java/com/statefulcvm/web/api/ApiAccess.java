package com.statefulcvm.web.api;

import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.web.security.Roles;
import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.ProcessDefinitionPermissions;
import org.camunda.bpm.engine.authorization.ProcessInstancePermissions;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;


/**
 * What the caller of our API may do, asked of the engine's authorizations before anything happens, so that a refusal
 * is a clear 403 rather than a query that finds nothing. The engine checks the same again on each call it makes with
 * the caller's authentication (ProcessEngineAuthenticationFilter sets it for /api/*); this only makes the answer
 * plain. Members of the engine's admin groups (camunda-admin) may do everything, as in the engine. The roles are
 * {@link Roles}.
 */
@Component
public class ApiAccess {

    private final ProcessEngineConfigurationImpl configuration;
    private final IdentityService identity;
    private final AuthorizationService authorizations;

    ApiAccess(ProcessEngine engine) {
        this.configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        this.identity = engine.getIdentityService();
        this.authorizations = engine.getAuthorizationService();
    }

    /** Start a rollout (of a set, one instance, or a rollback): what the engine asks for a process start. */
    public void requireStart(String what) {
        requireStart(RolloutVariables.PROCESS_KEY, what);
    }

    /** Start an instance of the procedure {@code processKey}: CREATE_INSTANCE on its definition, CREATE on instances. */
    public void requireStart(String processKey, String what) {
        Authentication caller = caller();
        if (caller != null && !mayStart(caller, processKey)) {
            throw refused(caller, what, "CREATE_INSTANCE on the process definition '" + processKey + "'");
        }
    }

    /** Whether the caller may start the procedure: what {@link #requireStart} asks, as a yes or no for a screen. */
    public boolean mayStart(String processKey) {
        Authentication caller = caller();
        return caller == null || mayStart(caller, processKey);
    }

    private boolean mayStart(Authentication caller, String processKey) {
        return authorized(caller, ProcessDefinitionPermissions.CREATE_INSTANCE, Resources.PROCESS_DEFINITION, processKey)
                && authorized(caller, ProcessInstancePermissions.CREATE, Resources.PROCESS_INSTANCE, "*");
    }

    /**
     * Pause, resume or abort a rollout: the role operators (or an admin). The message itself is then sent as the
     * application ({@link com.statefulcvm.delegates.support.AsApplication}): a role that could send it as itself
     * would need UPDATE_INSTANCE, which also writes variables and modifies instances.
     */
    public void requireControl(String what) {
        Authentication caller = caller();
        if (caller == null) {
            return;
        }
        if (!mayControl(caller)) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "user '" + caller.getUserId() + "' may not " + what
                    + ": that needs the role '" + Roles.OPERATORS + "' (membership of the group '" + Roles.OPERATORS + "')");
        }
    }

    /** Whether the caller may pause, resume and abort rollouts (all of them): for a screen's buttons. */
    public boolean mayControl() {
        Authentication caller = caller();
        return caller == null || mayControl(caller);
    }

    private boolean mayControl(Authentication caller) {
        return Roles.holds(configuration, caller, Roles.OPERATORS);
    }

    /** The rollout report: read from the engine's history. */
    public void requireReadHistory(String what) {
        requireReadHistory(RolloutVariables.PROCESS_KEY, what);
    }

    /** A procedure's report or list: read from the engine's history of the procedure {@code processKey}. */
    public void requireReadHistory(String processKey, String what) {
        Authentication caller = caller();
        if (caller == null) {
            return;
        }
        if (!authorized(caller, ProcessDefinitionPermissions.READ_HISTORY, Resources.PROCESS_DEFINITION, processKey)) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "user '" + caller.getUserId() + "' may not " + what
                    + ": that needs READ_HISTORY on the process definition '" + processKey + "', which the roles '"
                    + Roles.VIEWERS + "', '" + Roles.OPERATORS + "' and '" + Roles.APPROVERS + "' have");
        }
    }

    /** Who asked, for the record a procedure keeps of it; "unknown" without an authenticated caller. */
    public String callerId() {
        Authentication caller = identity.getCurrentAuthentication();
        return caller == null || caller.getUserId() == null ? "unknown" : caller.getUserId();
    }

    /** Null when nothing is to be checked: authorizations are off. Our API is only reached with an authenticated caller. */
    private Authentication caller() {
        if (!configuration.isAuthorizationEnabled()) {
            return null;
        }
        Authentication caller = identity.getCurrentAuthentication();
        if (caller == null || caller.getUserId() == null) {
            throw new ApiProblem(HttpStatus.UNAUTHORIZED, "authentication required");
        }
        return caller;
    }

    private boolean authorized(Authentication caller, Permission permission, Resource resource, String resourceId) {
        if (Roles.isAdmin(configuration, caller)) {
            return true;
        }
        return authorizations.isUserAuthorized(caller.getUserId(), caller.getGroupIds(), permission, resource, resourceId);
    }

    private static ApiProblem refused(Authentication caller, String what, String needed) {
        return new ApiProblem(HttpStatus.FORBIDDEN, "user '" + caller.getUserId() + "' may not " + what + ": that needs "
                + needed + ", which the role '" + Roles.OPERATORS + "' has");
    }
}
