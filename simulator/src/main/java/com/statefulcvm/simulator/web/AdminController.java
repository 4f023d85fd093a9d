package com.statefulcvm.simulator.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.statefulcvm.simulator.SimulatorProperties;
import com.statefulcvm.simulator.backend.ProcessBackends;
import com.statefulcvm.simulator.cloud.ApiException;
import com.statefulcvm.simulator.cloud.CvmEvent;
import com.statefulcvm.simulator.cloud.CvmRole;
import com.statefulcvm.simulator.cloud.CvmSnapshot;
import com.statefulcvm.simulator.cloud.Fault;
import com.statefulcvm.simulator.cloud.FaultInjector;
import com.statefulcvm.simulator.cloud.SimulatedCloud;
import com.statefulcvm.simulator.cloud.SimulatedKms;
import com.statefulcvm.simulator.evidence.EvidenceTamper;
import com.statefulcvm.simulator.evidence.SimulatedGuestAgent;
import com.statefulcvm.simulator.evidence.SimulatedTdxAuthority;

/**
 * Test and demo controls: the event journal, crashes, workload health, workload leadership, evidence faults, the attestation trust anchor,
 * faults, timings, process backends (read only), on-chain KMS apps, the workspace's quotas, the KMS's signing key, the
 * journal of API requests, reset. No API key.
 */
@RestController
@RequestMapping(ApiPaths.ADMIN)
@ConditionalOnProperty(prefix = "simulator", name = "enabled", havingValue = "true")
public class AdminController {

    private final SimulatedCloud cloud;
    private final FaultInjector faults;
    private final SimulatedGuestAgent guestAgent;
    private final SimulatedTdxAuthority authority;
    private final ProcessBackends backends;

    private final RequestJournal requests;

    public AdminController(SimulatedCloud cloud, FaultInjector faults, SimulatedGuestAgent guestAgent,
            SimulatedTdxAuthority authority, ProcessBackends backends, RequestJournal requests) {
        this.cloud = cloud;
        this.faults = faults;
        this.guestAgent = guestAgent;
        this.authority = authority;
        this.backends = backends;
        this.requests = requests;
    }

    /** Marks an app's KMS as on chain ({@code {"enabled": true}}) or back off chain. */
    @PostMapping("/apps/{appId}/on-chain-kms")
    Map<String, Object> onChainKms(@PathVariable String appId,
            @RequestBody(required = false) AdminRequests.OnChainKms request) {
        if (request == null || request.enabled() == null) {
            throw ApiException.badRequest("{\"enabled\": true|false} is required");
        }
        var app = cloud.setOnChainKms(appId, request.enabled());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("appId", app.appId());
        answer.put("kmsType", app.kmsType());
        answer.put("onChainKms", request.enabled());
        return answer;
    }

    /**
     * Mines an {@code addComposeHash} transaction on the app's contract, the registration a commit is verified
     * against: {@code {"composeHash": "…", "transactionHash"?: "0x…", "verifies"?: true, "expired"?: false}}.
     * Posting a known hash again replaces it, to expire a registration say.
     */
    @PostMapping("/apps/{appId}/on-chain-kms/transactions")
    Map<String, Object> mineComposeHash(@PathVariable String appId,
            @RequestBody(required = false) AdminRequests.ComposeHashTransaction request) {
        if (request == null || request.composeHash() == null) {
            throw ApiException.badRequest("{\"composeHash\": \"<64 hex digits>\"} is required");
        }
        return cloud.mineComposeHash(appId, request.composeHash(), request.transactionHash(),
                !Boolean.FALSE.equals(request.verifies()), Boolean.TRUE.equals(request.expired()));
    }

    @GetMapping("/quotas")
    Map<String, Integer> quotas() {
        return cloud.quota().limits();
    }

    @PutMapping("/quotas")
    Map<String, Integer> updateQuotas(@RequestBody(required = false) AdminRequests.Quotas request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON object with quota fields is required");
        }
        cloud.quota().set(request.vmSlots(), request.vcpu(), request.memoryMb(), request.diskGb());
        return cloud.quota().limits();
    }

    /** The KMS a client asks for env keys, and the signing key to pin ({@code orchestrator.phala.kms-signers}). */
    @GetMapping("/kms")
    Map<String, Object> kms() {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("id", SimulatedKms.ID);
        answer.put("slug", SimulatedKms.SLUG);
        answer.put("signer", SimulatedKms.signerPublicKey());
        return answer;
    }

    /** The API requests received, oldest first, after sequence number {@code since}. */
    @GetMapping("/requests")
    List<RequestJournal.Entry> requests(@RequestParam(defaultValue = "0") long since) {
        return requests.since(since);
    }

    @GetMapping("/events")
    List<CvmEvent> events(@RequestParam(defaultValue = "0") long sinceSeq) {
        return cloud.events(sinceSeq);
    }

    @PostMapping("/cvms/{name}/crash")
    Map<String, Object> crash(@PathVariable String name) {
        CvmSnapshot cvm = cloud.crash(name);
        return cvmSummary(cvm);
    }

    @PostMapping("/cvms/{name}/health")
    Map<String, Object> health(@PathVariable String name,
            @RequestBody(required = false) AdminRequests.Health request) {
        if (request == null || request.healthy() == null) {
            throw ApiException.badRequest("healthy (true or false) is required");
        }
        CvmSnapshot cvm = cloud.setHealthy(name, request.healthy());
        Map<String, Object> answer = cvmSummary(cvm);
        answer.put("healthy", request.healthy());
        return answer;
    }

    /** The CVM's role in its app's workload (electing the app's leader if it has none, as a role probe would). */
    @GetMapping("/cvms/{name}/role")
    Map<String, Object> role(@PathVariable String name) {
        return roleSummary(cloud.role(name));
    }

    /** {@code {"leader": true}} makes the CVM its app's leader and every other CVM of the app a replica. */
    @PostMapping("/cvms/{name}/role")
    Map<String, Object> role(@PathVariable String name, @RequestBody(required = false) AdminRequests.Role request) {
        if (request == null || request.leader() == null) {
            throw ApiException.badRequest("leader (true) is required");
        }
        if (!request.leader()) {
            throw ApiException.badRequest("only {\"leader\": true} is supported: make another CVM the leader instead");
        }
        return roleSummary(cloud.makeLeader(name));
    }

    private static Map<String, Object> roleSummary(CvmRole role) {
        Map<String, Object> answer = cvmSummary(role.cvm());
        answer.put("leader", role.leader());
        answer.put("appLeader", role.appLeader());
        return answer;
    }

    /** Injects an evidence fault into the CVM's GetQuote answers; sticky until {@code none}. */
    @PostMapping("/cvms/{name}/evidence")
    Map<String, Object> evidence(@PathVariable String name, @RequestBody(required = false) Map<String, Object> request) {
        Object value = request == null ? null : request.get("tamper");
        EvidenceTamper tamper = (value instanceof String text ? EvidenceTamper.fromWireName(text)
                : java.util.Optional.<EvidenceTamper>empty())
                .orElseThrow(() -> ApiException.badRequest("tamper must be one of "
                        + String.join(", ", EvidenceTamper.wireNames())));
        CvmSnapshot cvm = cloud.cvm(name);
        guestAgent.setTamper(cvm.vmUuid(), tamper);
        return evidenceSummary(cvm);
    }

    @GetMapping("/cvms/{name}/evidence")
    Map<String, Object> evidence(@PathVariable String name) {
        return evidenceSummary(cloud.cvm(name));
    }

    /** The simulator's attestation root (PEM): the trust anchor a separately started orchestrator must be given. */
    @GetMapping(value = "/trust-anchor", produces = "application/x-pem-file")
    String trustAnchor() {
        return authority.rootPem();
    }

    private Map<String, Object> evidenceSummary(CvmSnapshot cvm) {
        Map<String, Object> answer = cvmSummary(cvm);
        answer.put("tamper", guestAgent.tamper(cvm.vmUuid()).wireName());
        return answer;
    }

    /**
     * The CVMs backed by local processes: ports, commands, {@code busy} while a command is queued or running, and the
     * latest command results (outcome, exit code, duration, the end of the output). Read only: commands come from
     * the configuration alone, never from a request.
     */
    @GetMapping("/backends")
    List<Map<String, Object>> backends() {
        return backends.status();
    }

    @GetMapping("/backends/{name}")
    Map<String, Object> backend(@PathVariable String name) {
        return backends.status(name).orElseThrow(() -> ApiException.detail(404, "No backend for CVM " + name));
    }

    @PostMapping("/faults")
    Fault addFault(@RequestBody(required = false) AdminRequests.NewFault request) {
        if (request == null) {
            throw ApiException.badRequest("a fault {method, pathPattern, status, times} is required");
        }
        return faults.add(request.method(), request.pathPattern(), request.status(), request.times(),
                request.retryAfterSeconds(), request.errorCode(), request.delayMs());
    }

    @GetMapping("/faults")
    List<Fault> faults() {
        return faults.pending();
    }

    @DeleteMapping("/faults")
    Map<String, Object> clearFaults() {
        return Map.of("cleared", faults.clear());
    }

    @GetMapping("/timings")
    Map<String, Long> timings() {
        return cloud.timings().asMap();
    }

    @PutMapping("/timings")
    Map<String, Long> updateTimings(@RequestBody(required = false) AdminRequests.Timings request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON object with timing fields is required");
        }
        SimulatorProperties.Timings timings = cloud.timings();
        Long[] values = {request.createMs(), request.startMs(), request.stopMs(), request.shutdownMs(),
            request.restartMs(), request.updateMs(), request.deleteMs()};
        for (Long value : values) {
            if (value != null && value < 0) {
                throw ApiException.badRequest("timings must be >= 0 ms");
            }
        }
        set(request.createMs(), timings::setCreateMs);
        set(request.startMs(), timings::setStartMs);
        set(request.stopMs(), timings::setStopMs);
        set(request.shutdownMs(), timings::setShutdownMs);
        set(request.restartMs(), timings::setRestartMs);
        set(request.updateMs(), timings::setUpdateMs);
        set(request.deleteMs(), timings::setDeleteMs);
        return timings.asMap();
    }

    @PostMapping("/reset")
    ResponseEntity<Void> reset() {
        faults.clear();
        cloud.reset();
        guestAgent.reset();
        backends.clearResults();
        return ResponseEntity.noContent().build();
    }

    private static void set(Long value, LongConsumer setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    private static Map<String, Object> cvmSummary(CvmSnapshot cvm) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("cvm", cvm.name());
        answer.put("vmUuid", cvm.vmUuid());
        answer.put("status", cvm.status());
        return answer;
    }
}
