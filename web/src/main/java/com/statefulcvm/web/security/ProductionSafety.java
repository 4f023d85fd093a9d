package com.statefulcvm.web.security;

import com.statefulcvm.web.config.PhalaTarget;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.identity.User;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.UserEntity;
import org.camunda.bpm.engine.impl.util.EncryptionUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.server.Ssl;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A production deployment fails closed: with the profile {@code phala}, or whenever the Phala API is not a simulator on
 * this machine, the application refuses to start (before its web server listens) while any of these holds, and says
 * which: the embedded simulator is on (its {@code _admin} controls crash CVMs and forge evidence, its CA would sign
 * evidence); an admin still has the password {@code admin} (or their own id), as the identity service's own password
 * check finds it, whatever {@code ORCHESTRATOR_ADMIN_PASSWORD} says (it only applies when the user is first created);
 * the server speaks plain HTTP with no TLS-terminating proxy declared ({@code server.ssl.*}, or
 * {@code orchestrator.security.trusted-proxies}).
 */
@Component
class ProductionSafety implements SmartInitializingSingleton {

    static final String PROFILE = "phala";
    private static final Logger log = LoggerFactory.getLogger(ProductionSafety.class);
    private static final String DEFAULT_PASSWORD = "admin";

    private final Environment environment;
    private final ProcessEngine engine;
    private final ServerProperties server;
    private final SecurityProperties security;

    ProductionSafety(Environment environment, ProcessEngine engine, ServerProperties server, SecurityProperties security) {
        this.environment = environment;
        this.engine = engine;
        this.server = server;
        this.security = security;
    }

    /** What the checks look at, gathered once. */
    record Facts(boolean simulatorEnabled, List<String> adminsWithDefaultPassword, boolean tls, boolean trustedProxies) {
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<String> weakAdmins = adminsWithDefaultPassword();
        if (!production(environment)) {
            if (!weakAdmins.isEmpty()) {
                log.warn("The admin {} logs in with the default password documented in README.md: fine for the demo on this "
                        + "machine, refused by the production profile; change it in the Admin webapp (or set {} before the "
                        + "first start) before anyone else can reach this deployment", weakAdmins, "ORCHESTRATOR_ADMIN_PASSWORD");
            }
            return;
        }
        List<String> problems = problems(new Facts(environment.getProperty("simulator.enabled", Boolean.class, false),
                weakAdmins, tls(server.getSsl()), security.hasTrustedProxies()));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Refusing to start a production deployment (profile '" + PROFILE
                    + "' or a Phala API other than this machine's simulator) until this is fixed:\n  - "
                    + String.join("\n  - ", problems) + "\n(docs/operations.md, \"Production\")");
        }
    }

    static boolean production(Environment environment) {
        return environment.acceptsProfiles(Profiles.of(PROFILE))
                || !PhalaTarget.isLocal(environment.getProperty("orchestrator.phala.base-url"));
    }

    static List<String> problems(Facts facts) {
        List<String> problems = new ArrayList<>();
        if (facts.simulatorEnabled()) {
            problems.add("simulator.enabled is true: the embedded simulator (unauthenticated fault injection, its own "
                    + "attestation CA) never runs beside the real Phala Cloud; set simulator.enabled=false");
        }
        for (String admin : facts.adminsWithDefaultPassword()) {
            problems.add("the admin '" + admin + "' still logs in with a default password ('admin' or its own id); change it "
                    + "in the Admin webapp (ORCHESTRATOR_ADMIN_PASSWORD only sets the password of a user created on that start)");
        }
        if (!facts.tls() && !facts.trustedProxies()) {
            problems.add("no TLS: set server.ssl.* (a key store or an SSL bundle) to serve HTTPS, or name the proxy that "
                    + "terminates TLS in front of this server in orchestrator.security.trusted-proxies");
        }
        return problems;
    }

    private static boolean tls(Ssl ssl) {
        return Ssl.isEnabled(ssl) && (ssl.getKeyStore() != null || ssl.getBundle() != null || ssl.getCertificate() != null);
    }

    /** The admin user of the configuration and every member of the admin groups whose password is 'admin' or its id. */
    private List<String> adminsWithDefaultPassword() {
        ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        IdentityService identity = engine.getIdentityService();
        Set<String> admins = new LinkedHashSet<>();
        String configured = environment.getProperty("camunda.bpm.admin-user.id");
        if (configured != null) {
            admins.add(configured);
        }
        if (configuration.getAdminUsers() != null) {
            admins.addAll(configuration.getAdminUsers());
        }
        for (String group : configuration.getAdminGroups() == null ? List.<String>of() : configuration.getAdminGroups()) {
            identity.createUserQuery().memberOfGroup(group).list().forEach(u -> admins.add(u.getId()));
        }
        List<String> weak = new ArrayList<>();
        for (String id : admins) {
            User user = identity.createUserQuery().userId(id).singleResult();
            if (user instanceof UserEntity entity && entity.getPassword() != null
                    && (matches(configuration, entity, DEFAULT_PASSWORD) || matches(configuration, entity, id))) {
                weak.add(id);
            }
        }
        return weak;
    }

    /** The identity service's own password check, without its side effect of counting a failed login. */
    private static boolean matches(ProcessEngineConfigurationImpl configuration, UserEntity user, String candidate) {
        return configuration.getPasswordManager().check(EncryptionUtil.saltPassword(candidate, user.getSalt()), user.getPassword());
    }
}
