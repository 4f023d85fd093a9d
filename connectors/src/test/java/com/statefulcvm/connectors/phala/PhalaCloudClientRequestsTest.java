package com.statefulcvm.connectors.phala;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.statefulcvm.connectors.phala.model.AppInfo;
import com.statefulcvm.connectors.phala.model.AppInstanceRequest;
import com.statefulcvm.connectors.phala.model.BatchStatus;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.EnvUpdate;
import com.statefulcvm.connectors.phala.model.ProvisionRequest;
import com.statefulcvm.connectors.phala.model.ProvisionResult;
import com.statefulcvm.connectors.phala.model.RevisionDetail;
import com.statefulcvm.connectors.phala.model.RevisionPage;
import com.statefulcvm.connectors.phala.model.UpdateResult;
import com.statefulcvm.connectors.phala.model.UrlPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What goes over the wire: paths, headers, bodies, and the decoding of the answers. */
class PhalaCloudClientRequestsTest extends WireMockApiSupport {

    private static final String HEX = "0123456789abcdef0123456789abcdef01234567";
    private static final String ACCEPTED = "{\"status\":\"in_progress\",\"message\":\"accepted\",\"correlation_id\":\"corr-1\"}";

    @Test
    void everyCallSendsKeyVersionAndJsonHeaders() {
        wm.stubFor(get(api("/cvms/cvm_1")).willReturn(okJson("{\"id\":\"cvm_1\"}")));

        clientWithoutRetries().getCvm("cvm_1");

        wm.verify(getRequestedFor(urlEqualTo(api("/cvms/cvm_1")))
                .withHeader("X-API-Key", equalTo(API_KEY))
                .withHeader("X-Phala-Version", equalTo("2026-01-21"))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("Accept", equalTo("application/json")));
    }

    @Test
    void blankKeySendsNoKeyHeaderAndCustomVersionIsUsed() {
        wm.stubFor(get(api("/cvms/cvm_1")).willReturn(okJson("{\"id\":\"cvm_1\"}")));
        PhalaCloudSettings settings = new PhalaCloudSettings(wm.baseUrl() + PREFIX, "  ", "2025-10-28",
                Duration.ofSeconds(2), Duration.ofSeconds(2), RetrySettings.none());

        PhalaCloudClients.create(settings).getCvm("cvm_1");

        wm.verify(getRequestedFor(urlEqualTo(api("/cvms/cvm_1")))
                .withHeader("X-API-Key", absent())
                .withHeader("X-Phala-Version", equalTo("2025-10-28")));
    }

    @Test
    void appPrefixIsStrippedFromAppPaths() {
        wm.stubFor(get(api("/apps/" + HEX)).willReturn(okJson("""
                {"id":"a1","name":"db","app_id":"app_%s","cvm_count":2,
                 "current_cvm":{"id":"cvm_1","status":"running"},
                 "cvms":[{"id":"cvm_1"},{"id":"cvm_2"}]}""".formatted(HEX))));
        wm.stubFor(get(api("/apps/" + HEX + "/cvms")).willReturn(okJson("[{\"id\":\"cvm_1\"},{\"id\":\"cvm_2\"}]")));

        AppInfo app = clientWithoutRetries().getApp("app_" + HEX);
        List<CvmInfo> cvms = clientWithoutRetries().listAppCvms("app_" + HEX);
        clientWithoutRetries().getApp(HEX);

        assertThat(app.appId()).isEqualTo("app_" + HEX);
        assertThat(app.cvmCount()).isEqualTo(2);
        assertThat(app.currentCvm().isRunning()).isTrue();
        assertThat(app.cvms()).extracting(CvmInfo::id).containsExactly("cvm_1", "cvm_2");
        assertThat(cvms).extracting(CvmInfo::id).containsExactly("cvm_1", "cvm_2");
        wm.verify(2, getRequestedFor(urlEqualTo(api("/apps/" + HEX))));
    }

    @Test
    void cvmDetailDecodesSnakeCaseAndComposeFileAsObject() {
        wm.stubFor(get(api("/cvms/cvm_1")).willReturn(okJson("""
                {"id":"cvm_1","name":"db-0","app_id":"app_x","vm_uuid":"uuid-1","instance_id":"abc",
                 "status":"running","in_progress":false,"progress":{"target":"","started_at":null},
                 "compose_hash":"h1","resource":{"instance_type":"tdx.small","vcpu":1,"memory_in_gb":2,"disk_in_gb":20},
                 "node_info":{"id":7,"name":"node-7","region":"us-west"},
                 "os":{"name":"dstack","version":"0.5.3","is_dev":false,"os_image_hash":"oh"},
                 "gateway":{"base_domain":"dstack-prod5.phala.network","cname":"c"},
                 "storage_fs":"zfs","disk_size":20,
                 "public_urls":[{"app":"https://a","instance":"https://i"}],
                 "compose_file":{"name":"db","docker_compose_file":"services: {}","gateway_enabled":true,"allowed_envs":["A"]},
                 "something_new":{"x":1}}""")));

        CvmInfo cvm = clientWithoutRetries().getCvm("cvm_1");

        assertThat(cvm.vmUuid()).isEqualTo("uuid-1");
        assertThat(cvm.instanceId()).isEqualTo("abc");
        assertThat(cvm.resource().memoryInGb()).isEqualTo(2.0);
        assertThat(cvm.nodeInfo().id()).isEqualTo("7");
        assertThat(cvm.os().osImageHash()).isEqualTo("oh");
        assertThat(cvm.gateway().baseDomain()).isEqualTo("dstack-prod5.phala.network");
        assertThat(cvm.publicUrls()).containsExactly(new UrlPair("https://a", "https://i"));
        assertThat(cvm.dockerCompose()).isEqualTo("services: {}");
        assertThat(cvm.composeFile().allowedEnvs()).containsExactly("A");
        assertThat(cvm.isSettled()).isTrue();
    }

    @Test
    void composeFileSentAsJsonStringIsDecodedToo() {
        wm.stubFor(get(api("/cvms/cvm_1")).willReturn(okJson("""
                {"id":"cvm_1","compose_file":"{\\"name\\":\\"db\\",\\"docker_compose_file\\":\\"services:\\\\n  db: {}\\",\\"kms_enabled\\":true}"}""")));

        CvmInfo cvm = clientWithoutRetries().getCvm("cvm_1");

        assertThat(cvm.composeFile().name()).isEqualTo("db");
        assertThat(cvm.composeFile().kmsEnabled()).isTrue();
        assertThat(cvm.dockerCompose()).isEqualTo("services:\n  db: {}");
    }

    @Test
    void dockerComposeIsPatchedAsRawYamlLikeTheSdk() {
        wm.stubFor(patch(api("/cvms/cvm_1/docker-compose")).willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json").withBody(ACCEPTED)));
        String yaml = "services:\n  db:\n    image: postgres:16\n";

        UpdateResult result = clientWithoutRetries().updateDockerCompose("cvm_1", yaml);

        assertThat(result.status()).isEqualTo(UpdateResult.IN_PROGRESS);
        assertThat(result.correlationId()).isEqualTo("corr-1");
        wm.verify(patchRequestedFor(urlEqualTo(api("/cvms/cvm_1/docker-compose")))
                .withHeader("Content-Type", equalTo("text/yaml"))
                .withHeader("X-Compose-Hash", absent())
                .withHeader("X-Transaction-Hash", absent())
                .withRequestBody(equalTo(yaml)));
    }

    @Test
    void phaseTwoOfAnOnChainUpdateCarriesBothHashHeaders() {
        wm.stubFor(patch(api("/cvms/cvm_1/docker-compose")).willReturn(aResponse().withStatus(202)
                .withHeader("Content-Type", "application/json").withBody(ACCEPTED)));

        clientWithoutRetries().updateDockerCompose("cvm_1", "services: {}\n", "ab".repeat(32), "0x" + "cd".repeat(32));

        wm.verify(patchRequestedFor(urlEqualTo(api("/cvms/cvm_1/docker-compose")))
                .withHeader("Content-Type", equalTo("text/yaml"))
                .withHeader("X-Compose-Hash", equalTo("ab".repeat(32)))
                .withHeader("X-Transaction-Hash", equalTo("0x" + "cd".repeat(32)))
                .withRequestBody(equalTo("services: {}\n")));
    }

    @Test
    void a465IsReadAsTheSdkReadsItAndCommittedWithTheToken() {
        wm.stubFor(patch(api("/cvms/cvm_1/docker-compose")).willReturn(status(465, """
                {"detail":{"message":"register it","details":[
                  {"field":"compose_hash","value":"%s"},{"field":"app_id","value":"%s"},
                  {"field":"device_id","value":"dev1"},{"field":"kms_info","value":{"id":"k","chain_id":8453}},
                  {"field":"commit_token","value":"tok-1"}]}}""".formatted("ab".repeat(32), HEX))));
        wm.stubFor(post(api("/cvms/cvm_1/commit-update")).willReturn(status(202,
                "{\"correlation_id\":\"corr-2\",\"status\":\"in_progress\"}")));

        PhalaApiException e = apiError(() -> clientWithoutRetries().updateDockerCompose("cvm_1", "services: {}\n"));
        var required = e.onChainHashRequired().orElseThrow();
        var committed = clientWithoutRetries().commitUpdate("cvm_1", required.commitToken(), required.composeHash(),
                "0x" + "ef".repeat(32));

        assertThat(e.isOnChainHashRequired()).isTrue();
        assertThat(required.appId()).isEqualTo(HEX);
        assertThat(required.deviceId()).isEqualTo("dev1");
        assertThat(required.kmsInfo()).contains("8453");
        assertThat(required.contractCall()).isEqualTo("addComposeHash(0x" + "ab".repeat(32) + ")");
        assertThat(required.appContractAddress()).isEqualTo("0x" + HEX);
        assertThat(committed.correlationId()).isEqualTo("corr-2");
        wm.verify(postRequestedFor(urlEqualTo(api("/cvms/cvm_1/commit-update"))).withRequestBody(equalToJson(
                "{\"token\":\"tok-1\",\"compose_hash\":\"" + "ab".repeat(32) + "\",\"transaction_hash\":\"0x" + "ef".repeat(32) + "\"}")));
    }

    @Test
    void envsArePatchedWithSnakeCaseKeys() {
        wm.stubFor(patch(api("/cvms/cvm_1/envs")).willReturn(okJson(ACCEPTED)));

        clientWithoutRetries().updateEnvs("cvm_1", new EnvUpdate("deadbeef", List.of("A", "B")));

        wm.verify(patchRequestedFor(urlEqualTo(api("/cvms/cvm_1/envs")))
                .withRequestBody(equalToJson("{\"encrypted_env\":\"deadbeef\",\"env_keys\":[\"A\",\"B\"]}")));
    }

    @Test
    void restartSendsTheForceFlag() {
        wm.stubFor(post(api("/cvms/cvm_1/restart")).willReturn(okJson("{\"id\":\"cvm_1\",\"status\":\"restarting\"}")));

        CvmInfo cvm = clientWithoutRetries().restart("cvm_1", false);

        assertThat(cvm.status()).isEqualTo("restarting");
        wm.verify(postRequestedFor(urlEqualTo(api("/cvms/cvm_1/restart"))).withRequestBody(equalToJson("{\"force\":false}")));
    }

    @Test
    void deleteToleratesAnEmptyBody() {
        wm.stubFor(delete(api("/cvms/cvm_1")).willReturn(aResponse().withStatus(200)));
        wm.stubFor(delete(api("/cvms/cvm_2")).willReturn(aResponse().withStatus(204)));
        wm.stubFor(delete(api("/cvms/cvm_3")).willReturn(okJson("{\"id\":\"cvm_3\",\"status\":\"deleting\"}")));

        assertThat(clientWithoutRetries().delete("cvm_1")).isNull();
        assertThat(clientWithoutRetries().delete("cvm_2")).isNull();
        assertThat(clientWithoutRetries().delete("cvm_3").status()).isEqualTo("deleting");
        wm.verify(1, deleteRequestedFor(urlPathEqualTo(api("/cvms/cvm_1"))));
        wm.verify(1, deleteRequestedFor(urlPathEqualTo(api("/cvms/cvm_2"))));
    }

    @Test
    void statusBatchPostsTheUuidsAndReadsTheMap() {
        wm.stubFor(post(api("/status/batch")).willReturn(okJson("""
                {"u1":{"vm_uuid":"u1","status":"running","in_progress":false},
                 "u2":{"vm_uuid":"u2","status":"updating","in_progress":true,"operation_type":"update_compose"}}""")));

        Map<String, BatchStatus> statuses = clientWithoutRetries().statusBatch(List.of("u1", "u2"));

        assertThat(statuses).containsOnlyKeys("u1", "u2");
        assertThat(statuses.get("u2").inProgress()).isTrue();
        assertThat(statuses.get("u2").operationType()).isEqualTo("update_compose");
        wm.verify(postRequestedFor(urlEqualTo(api("/status/batch"))).withRequestBody(equalToJson("{\"vm_uuids\":[\"u1\",\"u2\"]}")));
    }

    @Test
    void revisionsArePagedAndTriggeredByIsAUserReference() {
        wm.stubFor(get(api("/apps/" + HEX + "/revisions?page=2&page_size=5")).willReturn(okJson("""
                {"revisions":[{"revision_id":"r9","compose_hash":"h9","operation_type":"update",
                   "triggered_by":{"object_type":"user","id":"u_1","username":"alice","avatar_url":null}},
                  {"revision_id":"r8","compose_hash":"h8","operation_type":"create","triggered_by":null}],
                 "total":6,"page":2,"page_size":5,"total_pages":2}""")));

        RevisionPage page = clientWithoutRetries().listRevisions("app_" + HEX, 2, 5);

        assertThat(page.revisions()).hasSize(2);
        assertThat(page.revisions().get(0).composeHash()).isEqualTo("h9");
        assertThat(page.revisions().get(0).triggeredBy().username()).isEqualTo("alice");
        assertThat(page.revisions().get(1).triggeredBy()).isNull();
        assertThat(page.totalPages()).isEqualTo(2);
    }

    @Test
    void aRevisionsDetailCarriesTheEncryptedEnvItWasDeployedWith() {
        wm.stubFor(get(api("/apps/" + HEX + "/revisions/r9")).willReturn(okJson("""
                {"revision_id":"r9","app_id":"%s","vm_uuid":"u1","compose_hash":"h9","compose_file":{"docker_compose_file":"x"},
                 "encrypted_env":"ab12","user_config":"","created_at":"2026-12-02T10:00:00Z","trace_id":null,
                 "operation_type":"update_env","triggered_by":{"object_type":"user","id":"u_1","username":"alice","avatar_url":null},
                 "cvm":null,"workspace":null}""".formatted(HEX))));

        RevisionDetail detail = clientWithoutRetries().getRevision("app_" + HEX, "r9");

        assertThat(detail.encryptedEnv()).isEqualTo("ab12");
        assertThat(detail.vmUuid()).isEqualTo("u1");
        assertThat(detail.operationType()).isEqualTo("update_env");
        assertThat(detail.triggeredBy().username()).isEqualTo("alice");
    }

    @Test
    void provisionSendsTheNodeAsANumericTeepodIdAndTheSdksComposeFields() {
        wm.stubFor(post(api("/cvms/provision")).willReturn(okJson("""
                {"app_id":"app_x","compose_hash":"h","app_env_encrypt_pubkey":"pk","os_image_hash":"o",
                 "instance_type":"tdx.small","teepod_id":12,"kms_id":"kms-1"}""")));

        ProvisionResult result = clientWithoutRetries().provision(new ProvisionRequest("db-0", null,
                new ProvisionRequest.Compose(null, null, "services: {}", null, null, null, null, null, null), 20, 12L,
                null, null));

        assertThat(result.appEnvEncryptPubkey()).isEqualTo("pk");
        assertThat(result.nodeId()).isEqualTo(12L);
        assertThat(result.kmsId()).isEqualTo("kms-1");
        wm.verify(postRequestedFor(urlEqualTo(api("/cvms/provision"))).withRequestBody(equalToJson("""
                {"name":"db-0","instance_type":"tdx.small","disk_size":20,"teepod_id":12,
                 "compose_file":{"name":"","docker_compose_file":"services: {}"}}""")));
    }

    @Test
    void createAppInstancePostsANumericNodeAndNoNameUnderTheBareAppId() {
        wm.stubFor(post(api("/apps/" + HEX + "/instances"))
                .willReturn(okJson("{\"id\":17,\"name\":\"db-abcde\",\"status\":\"pending\",\"vm_uuid\":\"u9\"}")));

        CvmInfo cvm = clientWithoutRetries().createAppInstance("app_" + HEX, AppInstanceRequest.onNode(3L));

        assertThat(cvm.status()).isEqualTo("pending");
        assertThat(cvm.id()).isEqualTo("17");
        wm.verify(postRequestedFor(urlEqualTo(api("/apps/" + HEX + "/instances"))).withRequestBody(equalToJson("{\"node_id\":3}")));
    }

    @Test
    void theCommitOfAnOnChainAppsNewInstanceSendsOnlyTheTokenAndTheHashes() {
        wm.stubFor(post(api("/apps/" + HEX + "/instances"))
                .willReturn(okJson("{\"id\":18,\"name\":\"db-fghij\",\"status\":\"pending\",\"vm_uuid\":\"u10\"}")));
        String hash = "ab".repeat(32);
        String transaction = "0x" + "cd".repeat(32);

        CvmInfo cvm = clientWithoutRetries().createAppInstance(HEX,
                AppInstanceRequest.of(3L, "services: {}", null).committing("tok", hash, transaction));
        clientWithoutRetries().createAppInstance(HEX, AppInstanceRequest.onNode(3L).committing(null, hash, transaction));

        assertThat(cvm.id()).as("the VM record's integer id, as text").isEqualTo("18");
        wm.verify(postRequestedFor(urlEqualTo(api("/apps/" + HEX + "/instances"))).withRequestBody(equalToJson(
                "{\"token\":\"tok\",\"compose_hash\":\"" + hash + "\",\"transaction_hash\":\"" + transaction + "\"}")));
        wm.verify(postRequestedFor(urlEqualTo(api("/apps/" + HEX + "/instances"))).withRequestBody(equalToJson(
                "{\"node_id\":3,\"compose_hash\":\"" + hash + "\",\"transaction_hash\":\"" + transaction + "\"}")));
    }

    @Test
    void renamePatchesTheNameAndReadsNoBody() {
        wm.stubFor(patch(api("/cvms/cvm_9/name")).willReturn(aResponse().withStatus(204)));

        clientWithoutRetries().renameCvm("cvm_9", "db-2");

        wm.verify(patchRequestedFor(urlEqualTo(api("/cvms/cvm_9/name")))
                .withHeader("Content-Type", equalTo("application/json"))
                .withRequestBody(equalToJson("{\"name\":\"db-2\"}")));
    }

    @Test
    void kmsPubkeyCurrentUserAndQuotas() {
        wm.stubFor(get(api("/kms/phala/pubkey/" + HEX)).willReturn(okJson("{\"public_key\":\"pk\",\"signature\":\"sig\"}")));
        wm.stubFor(get(api("/auth/me")).willReturn(okJson("""
                {"user":{"username":"alice"},"workspace":{"id":"ws1","name":"W","slug":"w-1","tier":"pro","role":"owner"},
                 "credits":{"balance":1}}""")));
        wm.stubFor(get(api("/workspaces/w-1/quotas")).willReturn(okJson("""
                {"team_slug":"w-1","tier":"pro","quotas":{"vm_slots":{"limit":10,"remaining":2},
                 "vcpu":{"limit":40,"remaining":3},"memory_mb":{"limit":81920,"remaining":4096},
                 "disk_gb":{"limit":1000,"remaining":100}},"as_of":"2026-01-01T00:00:00Z"}""")));

        var key = clientWithoutRetries().getAppEnvEncryptPubkey("phala", "app_" + HEX);
        var me = clientWithoutRetries().getCurrentUser();
        var quotas = clientWithoutRetries().getWorkspaceQuotas(me.workspace().slug());

        assertThat(key.signature()).isEqualTo("sig");
        assertThat(me.workspace().slug()).isEqualTo("w-1");
        assertThat(quotas.quotas().vmSlots().remaining()).isEqualTo(2);
        assertThat(quotas.quotas().memoryMb().limit()).isEqualTo(81920);
    }

    @Test
    void attestationKeepsComposeFileAsTextWhateverTheWireForm() {
        wm.stubFor(get(api("/cvms/cvm_1/attestation")).willReturn(okJson("""
                {"name":"db-0","is_online":true,"app_certificates":[{"subject":"x"}],
                 "tcb_info":{"mrtd":"m","rtmr3":"r3","event_log":[{"imr":3,"event_type":134217729,"digest":"d",
                 "event":"compose-hash","event_payload":"ab"}],"app_compose":{"runner":"docker-compose"}},
                 "compose_file":"{\\"name\\":\\"db\\"}"}""")));

        var attestation = clientWithoutRetries().getAttestation("cvm_1");

        assertThat(attestation.isOnline()).isTrue();
        assertThat(attestation.appCertificates()).singleElement()
                .satisfies(c -> assertThat(c.get("subject").asText()).isEqualTo("x"));
        assertThat(attestation.tcbInfo().eventLog()).singleElement()
                .satisfies(ev -> assertThat(ev.eventType()).isEqualTo(0x08000001L));
        assertThat(attestation.tcbInfo().appCompose()).isEqualTo("{\"runner\":\"docker-compose\"}");
        assertThat(attestation.composeFile()).isEqualTo("{\"name\":\"db\"}");
    }
}
