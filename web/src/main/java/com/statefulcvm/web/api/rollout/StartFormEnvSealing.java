package com.statefulcvm.web.api.rollout;

import com.statefulcvm.web.api.ApiProblem;
import com.statefulcvm.web.servlet.ReplayedBodyRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.statefulcvm.connectors.phala.EnvEncryption;
import com.statefulcvm.delegates.procedure.RolloutVariables;
import com.statefulcvm.delegates.support.ReplicaSets;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The env field of the rollout's start form (Tasklist) sealed before the engine sees it: a start of {@code rollout}
 * through the engine's REST API or Tasklist's ({@code .../process-definition/{id|key/rollout}/submit-form} or
 * {@code /start}) whose variables hold {@code envs} (one NAME=value a line, or a JSON object) has them checked and
 * sealed to the set's app key here, in this request's memory; the request goes on to the engine without them, the
 * sealed env handed over to the start check ({@link SealedEnvHandover}). Nothing of the values is stored or logged:
 * history, variables and logs hold the ciphertext and the names. A bad env is refused here with the reason, as the
 * engine's REST API words a refusal ({@code {"type", "message"}}), and nothing starts.
 */
@Configuration
class StartFormEnvSealing {

    /** A start's body is a compose, a policy and an env at most (256 KB, 64 KB and change). */
    static final int MAX_BODY = 1024 * 1024;
    private static final Pattern BY_KEY = Pattern.compile(".*/process-definition/key/([^/]+)(?:/tenant-id/[^/]+)?/(?:submit-form|start)$");
    private static final Pattern BY_ID = Pattern.compile(".*/process-definition/([^/]+)/(?:submit-form|start)$");

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> startFormEnvSealingFilter(ProcessEngine engine, ReplicaSets replicaSets,
                                                                          EnvSealer sealer, SealedEnvHandover handover,
                                                                          ObjectMapper json) {
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                new Sealing((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration(), replicaSets, sealer, handover, json));
        registration.setName("start-form-env-sealing");
        registration.addUrlPatterns("/engine-rest/*", "/camunda/api/engine/*");
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 10);
        return registration;
    }

    static final class Sealing extends OncePerRequestFilter {

        private final ProcessEngineConfigurationImpl engine;
        private final ReplicaSets replicaSets;
        private final EnvSealer sealer;
        private final SealedEnvHandover handover;
        private final ObjectMapper json;

        Sealing(ProcessEngineConfigurationImpl engine, ReplicaSets replicaSets, EnvSealer sealer, SealedEnvHandover handover, ObjectMapper json) {
            this.engine = engine;
            this.replicaSets = replicaSets;
            this.sealer = sealer;
            this.handover = handover;
            this.json = json;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if (!"POST".equals(request.getMethod()) || !startsARollout(request.getRequestURI())) {
                chain.doFilter(request, response);
                return;
            }
            byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                refuse(response, HttpStatus.PAYLOAD_TOO_LARGE, "the start's body is larger than " + MAX_BODY + " bytes");
                return;
            }
            JsonNode parsed;
            try {
                parsed = json.readTree(body);
            } catch (IOException notJson) {
                parsed = null;
            }
            JsonNode variables = parsed == null ? null : parsed.get("variables");
            JsonNode envs = variables == null || !variables.isObject() ? null : variables.get(RolloutRequest.ENVS);
            if (envs == null) {
                chain.doFilter(ReplayedBodyRequest.withBody(request, body), response);
                return;
            }
            ((ObjectNode) variables).remove(RolloutRequest.ENVS);
            byte[] withoutEnvs = json.writeValueAsBytes(parsed);
            JsonNode value = envs.get("value");
            String text = value == null || value.isNull() ? null : value.isTextual() ? value.asText() : value.toString();
            EnvEncryption.Sealed sealed;
            String set;
            try {
                Map<String, String> env = RolloutRequest.envsOfText(text);
                if (env == null) {
                    chain.doFilter(ReplayedBodyRequest.withBody(request, withoutEnvs), response);
                    return;
                }
                set = setOf(variables);
                sealed = sealer.seal(replicaSets.spec(set), env);
            } catch (ApiProblem problem) {
                refuse(response, problem.status(), problem.getMessage());
                return;
            }
            try {
                handover.during(set, sealed, () -> {
                    chain.doFilter(ReplayedBodyRequest.withBody(request, withoutEnvs), response);
                    return null;
                });
            } catch (IOException | ServletException | RuntimeException failure) {
                throw failure;
            } catch (Exception other) {
                throw new ServletException(other);
            }
        }

        private String setOf(JsonNode variables) {
            JsonNode set = variables.path(RolloutVariables.REPLICA_SET).get("value");
            String name = set == null || !set.isTextual() ? null : set.asText().strip();
            if (name == null || name.isEmpty()) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "replicaSet: is required");
            }
            if (!replicaSets.exists(name)) {
                throw new ApiProblem(HttpStatus.BAD_REQUEST, "replicaSet: unknown replica set '" + name + "'");
            }
            return name;
        }

        /** The rollout's definition, named by key or by id (looked up as the application: only its key matters here). */
        private boolean startsARollout(String uri) {
            Matcher byKey = BY_KEY.matcher(uri);
            if (byKey.matches()) {
                return RolloutVariables.PROCESS_KEY.equals(byKey.group(1));
            }
            Matcher byId = BY_ID.matcher(uri);
            if (!byId.matches() || "key".equals(byId.group(1))) {
                return false;
            }
            String id = java.net.URLDecoder.decode(byId.group(1), StandardCharsets.UTF_8);
            return engine.getCommandExecutorTxRequired().execute(context -> {
                context.disableAuthorizationCheck();
                ProcessDefinitionEntity definition = context.getProcessDefinitionManager().findLatestDefinitionById(id);
                return Optional.ofNullable(definition).map(d -> RolloutVariables.PROCESS_KEY.equals(d.getKey())).orElse(false);
            });
        }

        private void refuse(HttpServletResponse response, HttpStatus status, String message) throws IOException {
            response.setStatus(status.value());
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            json.writeValue(response.getWriter(), Map.of("type", "InvalidRequestException", "message", message));
        }
    }
}
