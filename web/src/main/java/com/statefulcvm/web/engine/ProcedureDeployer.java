package com.statefulcvm.web.engine;

import com.statefulcvm.web.config.ProcedureResources;
import com.statefulcvm.web.config.ProcedureResources.Procedure;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.repository.ResourceDefinitionEntity;
import org.camunda.bpm.engine.repository.Deployment;
import org.camunda.bpm.engine.repository.DeploymentBuilder;
import org.camunda.bpm.engine.repository.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Deploys the procedures at start ({@link ProcedureResources}: the built-in ones and those of the processes directory,
 * a file there replacing the built-in with its id), each only when what is deployed differs from it, so an unchanged
 * procedure gets no new version. A procedure whose latest version an operator deployed another way (Camunda Modeler's
 * deploy button, the engine's REST API) is not silently replaced at the next start: a built-in stays behind it, with a
 * line in the log saying so and how to go back; a file of the processes directory replaces it only when the file has
 * changed since this application last deployed it (editing the file is the operator's say-so).
 * <p>
 * The checks and the deployment run in one transaction under the engine's deployment lock, so nodes starting together
 * on one database deploy once. Deployments made here are named {@value #NAME} with source {@value #SOURCE}; the
 * Spring Boot starter's own ({@value #STARTER_NAME}, what this application used before) count as this application's.
 */
@Component
public class ProcedureDeployer extends AbstractProcessEnginePlugin {

    public static final String NAME = "orchestrator-procedures";
    public static final String SOURCE = "orchestrator";
    static final String STARTER_NAME = "SpringAutoDeployment";
    private static final Logger log = LoggerFactory.getLogger(ProcedureDeployer.class);

    private final ProcedureResources procedures;

    public ProcedureDeployer(ProcedureResources procedures) {
        this.procedures = procedures;
    }

    @Override
    public void postProcessEngineBuild(ProcessEngine engine) {
        deploy(engine);
    }

    /** What a start does; the deployment it made, if it made one. */
    public Optional<String> deploy(ProcessEngine engine) {
        ProcessEngineConfigurationImpl configuration = (ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration();
        procedures.replacedBuiltIns().forEach(builtIn -> log.info("The built-in {} is replaced by a file of {}: {}", builtIn.name(),
                procedures.directory(), builtIn.keys()));
        return configuration.getCommandExecutorTxRequired().execute(context -> {
            context.disableAuthorizationCheck();
            context.getPropertyManager().acquireExclusiveLock();
            RepositoryService repository = configuration.getRepositoryService();
            List<Deployment> ours = repository.createDeploymentQuery().orderByDeploymentTime().desc().list().stream()
                    .filter(ProcedureDeployer::isOurs).toList();
            List<Procedure> changed = new ArrayList<>();
            for (Procedure procedure : procedures.effective()) {
                if (needsDeploying(context, repository, ours, procedure)) {
                    changed.add(procedure);
                }
            }
            if (changed.isEmpty()) {
                log.info("Procedures deployed already: nothing changed ({} files)", procedures.effective().size());
                return Optional.<String>empty();
            }
            DeploymentBuilder deployment = repository.createDeployment().name(NAME).source(SOURCE);
            changed.forEach(p -> deployment.addInputStream(p.name(), new ByteArrayInputStream(p.content())));
            String id = deployment.deploy().getId();
            List<String> fromDirectory = changed.stream().filter(Procedure::fromDirectory).map(Procedure::origin).toList();
            log.info("Deployed {} changed procedure file(s) as deployment {}, {} of them from {}{}", changed.size(), id,
                    fromDirectory.size(), procedures.directory(), fromDirectory.isEmpty() ? "" : ": " + fromDirectory);
            return Optional.of(id);
        });
    }

    private boolean needsDeploying(CommandContext context, RepositoryService repository, List<Deployment> ours, Procedure procedure) {
        boolean differs = false;
        Deployment foreign = null;
        for (String key : procedure.keys()) {
            ResourceDefinitionEntity<?> latest = latest(context, key);
            if (latest == null) {
                differs = true;
                continue;
            }
            Deployment deployment = repository.createDeploymentQuery().deploymentId(latest.getDeploymentId()).singleResult();
            if (deployment != null && !isOurs(deployment)) {
                foreign = deployment;
            }
            if (!Arrays.equals(bytes(repository, latest.getDeploymentId(), latest.getResourceName()), procedure.content())) {
                differs = true;
            }
        }
        if (foreign == null) {
            return differs;
        }
        byte[] lastDeployedHere = lastDeployedHere(repository, ours, procedure);
        boolean changedSince = lastDeployedHere == null || !Arrays.equals(lastDeployedHere, procedure.content());
        if (procedure.fromDirectory() && changedSince) {
            log.info("{} changed since this application last deployed it: deployed over {} (deployment '{}', source '{}', {})",
                    procedure.origin(), procedure.keys(), foreign.getName(), foreign.getSource(), foreign.getDeploymentTime());
            return true;
        }
        String howBack = "to go back to this application's, delete that deployment (Cockpit: Deployments) or copy the file into "
                + (procedures.directory() == null ? "the processes directory" : procedures.directory()) + " and restart";
        if (changedSince) {
            log.warn("{} {} has changed in this release, but the latest version of {} was deployed outside this application "
                    + "(deployment '{}', source '{}', {}): it stays the latest; {}", procedure.fromDirectory() ? "The file" : "The built-in",
                    procedure.name(), procedure.keys(), foreign.getName(), foreign.getSource(), foreign.getDeploymentTime(), howBack);
        } else {
            log.info("The latest version of {} was deployed outside this application (deployment '{}', source '{}', {}): it stays the "
                    + "latest, {} is not deployed over it; {}", procedure.keys(), foreign.getName(), foreign.getSource(),
                    foreign.getDeploymentTime(), procedure.name(), howBack);
        }
        return false;
    }

    /** The latest definition of {@code kind:id}, whichever deployment holds it. */
    private static ResourceDefinitionEntity<?> latest(CommandContext context, String key) {
        String id = key.substring(key.indexOf(':') + 1);
        if (key.startsWith("process:")) {
            return context.getProcessDefinitionManager().findLatestDefinitionByKey(id);
        }
        if (key.startsWith("decision:")) {
            return context.getDecisionDefinitionManager().findLatestDefinitionByKey(id);
        }
        return context.getCamundaFormDefinitionManager().findLatestDefinitionByKey(id);
    }

    /** The procedure's file as this application last deployed it (the starter's deployments named it by its path). */
    private static byte[] lastDeployedHere(RepositoryService repository, List<Deployment> ours, Procedure procedure) {
        String file = procedure.name().substring(procedure.name().lastIndexOf('/') + 1);
        for (Deployment deployment : ours) {
            for (Resource resource : repository.getDeploymentResources(deployment.getId())) {
                String name = resource.getName();
                boolean same = name.equals(procedure.name())
                        || (STARTER_NAME.equals(deployment.getName()) && !procedure.fromDirectory() && (name.endsWith("/" + file) || name.equals(file)));
                if (same) {
                    return bytes(repository, deployment.getId(), name);
                }
            }
        }
        return null;
    }

    static boolean isOurs(Deployment deployment) {
        return SOURCE.equals(deployment.getSource()) || STARTER_NAME.equals(deployment.getName());
    }

    private static byte[] bytes(RepositoryService repository, String deploymentId, String resourceName) {
        if (resourceName == null) {
            return null;
        }
        try (InputStream in = repository.getResourceAsStream(deploymentId, resourceName)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException gone) {
            return null;
        }
    }
}
