package com.statefulcvm.connectors.phala;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.connectors.phala.model.AppInfo;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.Attestation;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CommitRequest;
import com.statefulcvm.connectors.phala.model.CommitUpdateResult;
import com.statefulcvm.connectors.phala.model.CommittedCvm;
import com.statefulcvm.connectors.phala.model.CurrentUser;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.CvmNetwork;
import com.statefulcvm.connectors.phala.model.CvmState;
import com.statefulcvm.connectors.phala.model.EnvEncryptPubkey;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.PhalaJson;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import com.statefulcvm.connectors.phala.model.RevisionDetail;
import com.statefulcvm.connectors.phala.model.RevisionPage;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.connectors.phala.model.WorkspaceQuotas;
import feign.ExceptionPropagationPolicy;
import feign.Feign;
import feign.FeignException;
import feign.Logger;
import feign.Request;
import feign.http2client.Http2Client;
import feign.jackson.JacksonDecoder;
import feign.jackson.JacksonEncoder;
import feign.slf4j.Slf4jLogger;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** {@link PhalaCloudClient} over OpenFeign and the JDK HTTP client (which, unlike HttpURLConnection, can PATCH). */
public final class FeignPhalaCloudClient implements PhalaCloudClient {

    private final PhalaCloudApi api;
    private final String baseUrl;

    FeignPhalaCloudClient(PhalaCloudApi api, String baseUrl) {
        this.api = api;
        this.baseUrl = baseUrl;
    }

    static FeignPhalaCloudClient create(PhalaCloudSettings settings, Sleeper sleeper, Clock clock, PhalaCallObserver observer) {
        Objects.requireNonNull(settings, "settings");
        ObjectMapper mapper = PhalaJson.newObjectMapper();
        String baseUrl = settings.baseUrl();
        // HTTP/1.1: plain-http simulators would otherwise get an h2c upgrade attempt on every new connection.
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        PhalaCloudApi api = Feign.builder()
                .client(new ObservedClient(new Http2Client(http), observer))
                // Must match the HttpClient above, or Http2Client builds a second client with other settings.
                .options(new Request.Options(settings.connectTimeout(), settings.readTimeout(), false))
                .encoder(new PhalaEncoder(new JacksonEncoder(mapper)))
                .decoder(new JacksonDecoder(mapper))
                .errorDecoder(new PhalaErrorDecoder(baseUrl, clock))
                .retryer(new PhalaRetryer(settings.retry(), baseUrl, sleeper, observer))
                .requestInterceptor(new PhalaHeadersInterceptor(settings))
                // BASIC logs method, URL and status only; HEADERS or FULL would log the API key.
                .logger(new Slf4jLogger(PhalaCloudApi.class))
                .logLevel(Logger.Level.BASIC)
                .exceptionPropagationPolicy(ExceptionPropagationPolicy.UNWRAP)
                .target(PhalaCloudApi.class, baseUrl);
        return new FeignPhalaCloudClient(api, baseUrl);
    }

    @Override
    public AppInfo getApp(String appId) {
        String app = AppIds.bare(appId);
        return call("GET", "/apps/" + app, () -> api.getApp(app));
    }

    @Override
    public List<CvmInfo> listAppCvms(String appId) {
        String app = AppIds.bare(appId);
        return call("GET", "/apps/" + app + "/cvms", () -> api.listAppCvms(app));
    }

    @Override
    public CvmInfo getCvm(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("GET", "/cvms/" + id, () -> api.getCvm(id));
    }

    @Override
    public CvmState getCvmState(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("GET", "/cvms/" + id + "/state", () -> api.getCvmState(id));
    }

    @Override
    public Map<String, BatchStatus> statusBatch(List<String> vmUuids) {
        List<String> uuids = List.copyOf(Objects.requireNonNull(vmUuids, "vmUuids"));
        return call("POST", "/status/batch", () -> api.statusBatch(new PhalaCloudApi.VmUuids(uuids)));
    }

    @Override
    public CvmInfo start(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("POST", "/cvms/" + id + "/start", () -> api.start(id));
    }

    @Override
    public CvmInfo stop(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("POST", "/cvms/" + id + "/stop", () -> api.stop(id));
    }

    @Override
    public CvmInfo shutdown(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("POST", "/cvms/" + id + "/shutdown", () -> api.shutdown(id));
    }

    @Override
    public CvmInfo restart(String cvmId, boolean force) {
        String id = segment("cvmId", cvmId);
        return call("POST", "/cvms/" + id + "/restart", () -> api.restart(id, new PhalaCloudApi.Restart(force)));
    }

    @Override
    public CvmInfo delete(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("DELETE", "/cvms/" + id, () -> api.delete(id));
    }

    @Override
    public UpdateResult updateDockerCompose(String cvmId, String dockerComposeYaml) {
        return updateDockerCompose(cvmId, dockerComposeYaml, null, null);
    }

    @Override
    public UpdateResult updateDockerCompose(String cvmId, String dockerComposeYaml, String composeHash, String transactionHash) {
        String id = segment("cvmId", cvmId);
        Objects.requireNonNull(dockerComposeYaml, "dockerComposeYaml");
        // as the SDK: each header only when given
        Map<String, Object> headers = new LinkedHashMap<>();
        if (composeHash != null && !composeHash.isBlank()) {
            headers.put("X-Compose-Hash", composeHash);
        }
        if (transactionHash != null && !transactionHash.isBlank()) {
            headers.put("X-Transaction-Hash", transactionHash);
        }
        return call("PATCH", "/cvms/" + id + "/docker-compose", () -> api.updateDockerCompose(id, headers, dockerComposeYaml));
    }

    @Override
    public CommitUpdateResult commitUpdate(String cvmId, String token, String composeHash, String transactionHash) {
        String id = segment("cvmId", cvmId);
        PhalaCloudApi.CommitUpdate body = new PhalaCloudApi.CommitUpdate(Objects.requireNonNull(token, "token"),
                Objects.requireNonNull(composeHash, "composeHash"), Objects.requireNonNull(transactionHash, "transactionHash"));
        return call("POST", "/cvms/" + id + "/commit-update", () -> api.commitUpdate(id, body));
    }

    @Override
    public UpdateResult updateEnvs(String cvmId, EnvUpdate update) {
        String id = segment("cvmId", cvmId);
        Objects.requireNonNull(update, "update");
        return call("PATCH", "/cvms/" + id + "/envs", () -> api.updateEnvs(id, update));
    }

    @Override
    public CvmInfo createAppInstance(String appId, AppInstanceRequest request) {
        String app = AppIds.bare(appId);
        AppInstanceRequest body = request != null ? request : AppInstanceRequest.onNode(null);
        return call("POST", "/apps/" + app + "/instances", () -> api.createAppInstance(app, body));
    }

    @Override
    public void renameCvm(String cvmId, String name) {
        String id = segment("cvmId", cvmId);
        PhalaCloudApi.NewName body = new PhalaCloudApi.NewName(Objects.requireNonNull(name, "name"));
        call("PATCH", "/cvms/" + id + "/name", () -> {
            api.rename(id, body);
            return null;
        });
    }

    @Override
    public ProvisionResult provision(ProvisionRequest request) {
        Objects.requireNonNull(request, "request");
        return call("POST", "/cvms/provision", () -> api.provision(request));
    }

    @Override
    public CommittedCvm commitProvision(CommitRequest request) {
        Objects.requireNonNull(request, "request");
        return call("POST", "/cvms", () -> api.commitProvision(request));
    }

    @Override
    public Attestation getAttestation(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("GET", "/cvms/" + id + "/attestation", () -> api.getAttestation(id));
    }

    @Override
    public CvmNetwork getNetwork(String cvmId) {
        String id = segment("cvmId", cvmId);
        return call("GET", "/cvms/" + id + "/network", () -> api.getNetwork(id));
    }

    @Override
    public RevisionPage listRevisions(String appId, int page, int pageSize) {
        String app = AppIds.bare(appId);
        return call("GET", "/apps/" + app + "/revisions", () -> api.listRevisions(app, page, pageSize));
    }

    @Override
    public RevisionDetail getRevision(String appId, String revisionId) {
        String app = AppIds.bare(appId);
        String revision = segment("revisionId", revisionId);
        return call("GET", "/apps/" + app + "/revisions/" + revision, () -> api.getRevision(app, revision));
    }

    @Override
    public EnvEncryptPubkey getAppEnvEncryptPubkey(String kms, String appId) {
        String kmsId = segment("kms", kms);
        String app = AppIds.bare(appId);
        return call("GET", "/kms/" + kmsId + "/pubkey/" + app, () -> api.getAppEnvEncryptPubkey(kmsId, app));
    }

    @Override
    public CurrentUser getCurrentUser() {
        return call("GET", "/auth/me", api::getCurrentUser);
    }

    @Override
    public WorkspaceQuotas getWorkspaceQuotas(String workspaceSlug) {
        String slug = segment("workspaceSlug", workspaceSlug);
        return call("GET", "/workspaces/" + slug + "/quotas", () -> api.getWorkspaceQuotas(slug));
    }

    @Override
    public String toString() {
        return "FeignPhalaCloudClient[" + baseUrl + "]";
    }

    /**
     * Error answers already arrive as {@link PhalaApiException}; what Feign may still throw is a body it could not
     * read or write, which becomes the same type so callers catch one thing.
     */
    private static <T> T call(String method, String path, Supplier<T> request) {
        try {
            return request.get();
        } catch (FeignException e) {
            String what = e.getClass().getSimpleName() + ": " + e.getMessage();
            throw new PhalaApiException(Math.max(e.status(), 0), null, "could not process the exchange (" + what + ")",
                    null, method, path, e);
        }
    }

    /** Ids go into the URL path; a slash would silently address another endpoint. */
    private static String segment(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        if (value.indexOf('/') >= 0) {
            throw new IllegalArgumentException(name + " must not contain '/': " + value);
        }
        return value.trim();
    }
}
