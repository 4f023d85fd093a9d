package com.statefulcvm.web.adoption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.statefulcvm.fleet.FleetDefinition;
import com.statefulcvm.fleet.FleetValidator;
import com.statefulcvm.fleet.ReplicaSetSpec;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fleet file's entry from a Terraform state written to the Phala provider's documented schema (docs/resources/app.md
 * and app_instance.md of terraform-provider-phala: a members-mode phala_app and a phala_app_instance per member, as in
 * its Consul example), as {@code terraform show -json} prints it and as terraform.tfstate holds it. The entry binds as
 * the fleet file binds, passes the fleet validator, and carries the compose byte for byte; no env value leaves the state.
 */
class FleetEntryDraftTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aMembersModeAppBecomesAValidEntryWithTheComposeItRunsByteForByte() throws Exception {
        JsonNode show = read("consul-show.json");
        FleetEntryDraft.Draft draft = FleetEntryDraft.of(TerraformState.apps(show), null, null, "consul");
        System.out.println(draft.yaml());
        assertThat(draft.replicaSet()).isEqualTo("consul");
        assertThat(draft.replicas()).isEqualTo(3);
        assertThat(draft.members()).containsOnlyKeys(0, 1, 2);
        assertThat(draft.members().get(2).vmUuid()).isEqualTo("6f1e2d3c-0000-4a5b-8c9d-000000000002");

        ReplicaSetSpec spec = bound(draft.yaml());
        String runs = show.path("values").path("root_module").path("resources").get(0).path("values").path("docker_compose").asText();
        assertThat(spec.getDockerCompose()).as("the compose the app runs, byte for byte").isEqualTo(runs);
        assertThat(spec.getAppId()).isEqualTo("app_3c1f0a9b8e7d6c5b4a39281706f5e4d3c2b1a098");
        assertThat(spec.getReplicas()).isEqualTo(3);
        assertThat(spec.getWorkloadType()).isEqualTo("consul");
        assertThat(spec.getInstanceType()).isEqualTo("tdx.small");
        assertThat(spec.getDiskSize()).isEqualTo(40);
        assertThat(spec.slotName(0)).isEqualTo("consul-0");

        String everything = draft.yaml() + draft.notes();
        assertThat(everything).as("no env value leaves the state").doesNotContain("the-plaintext-secret-in-state");
        assertThat(draft.notes().get(0)).contains("CONSUL_ENCRYPT_KEY").contains("CVM_SLOT_NAME");
        assertThat(draft.notes().get(1)).contains("ignore_changes").contains("phala_app.consul");
    }

    @Test
    void aStateFileGivesTheSameEntry() throws Exception {
        FleetEntryDraft.Draft fromShow = FleetEntryDraft.of(TerraformState.apps(read("consul-show.json")), null, null, "consul");
        FleetEntryDraft.Draft fromState = FleetEntryDraft.of(TerraformState.apps(read("consul.tfstate")), "phala_app.consul", null, "consul");
        assertThat(fromState.yaml()).isEqualTo(fromShow.yaml());
        assertThat(fromState.members().get(1).instanceId()).isEqualTo(fromShow.members().get(1).instanceId());
    }

    /**
     * CVMs named dbnode-a... (which the orchestrator once never mentioned) are mapped to slots in the entry's members:,
     * in the state's order, and the entry binds and validates as the application reads it.
     */
    @Test
    void membersNotNamedSetDashOrdinalAreMappedToSlotsInTheEntry() throws Exception {
        FleetEntryDraft.Draft draft = FleetEntryDraft.of(TerraformState.apps(read("dbnode-show.json")), null, "mydb", "generic");
        assertThat(draft.replicas()).isEqualTo(3);
        assertThat(draft.yaml()).contains("members:\n  - dbnode-a\n  - dbnode-b\n  - dbnode-c\n");
        assertThat(draft.notes()).anyMatch(n -> n.startsWith("members dbnode-a, dbnode-b, dbnode-c are not named mydb-<ordinal>"));
        ReplicaSetSpec spec = bound(draft.yaml().lines().filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n")));
        assertThat(spec.getMembers()).containsExactly("dbnode-a", "dbnode-b", "dbnode-c");
    }

    @Test
    void badInputNamesTheCause() throws Exception {
        assertThatThrownBy(() -> TerraformState.apps(JSON.readTree("{\"format_version\": \"1.0\"}")))
                .hasMessageContaining("is this a Terraform state?");
        assertThatThrownBy(() -> FleetEntryDraft.of(TerraformState.apps(read("consul-show.json")), "phala_app.other", null, "generic"))
                .hasMessage("app: no phala_app 'phala_app.other' in the state (have [phala_app.consul])");
        assertThatThrownBy(() -> FleetEntryDraft.of(TerraformState.apps(read("consul-show.json")), null, "Consul", "generic"))
                .hasMessageStartingWith("set: must be lower-case letters");
        assertThat(FleetEntryDraft.of(TerraformState.apps(read("consul-show.json")), "app_3c1f0a9b8e7d6c5b4a39281706f5e4d3c2b1a098",
                null, "generic").replicaSet()).isEqualTo("consul");
    }

    /** The entry pasted under orchestrator.fleet.replica-sets, bound and validated as the application does at start-up. */
    private static ReplicaSetSpec bound(String entry) throws Exception {
        String indented = entry.lines().map(l -> "    " + l).collect(Collectors.joining("\n", "", "\n"));
        String file = "orchestrator:\n  fleet:\n    replica-sets:\n" + indented;
        StandardEnvironment environment = new StandardEnvironment();
        new YamlPropertySourceLoader().load("fleet", new ByteArrayResource(file.getBytes(StandardCharsets.UTF_8)))
                .forEach(environment.getPropertySources()::addFirst);
        FleetDefinition fleet = Binder.get(environment).bind("orchestrator.fleet", FleetDefinition.class).get();
        assertThat(new FleetValidator(Set.of("generic", "consul"), false, Path.of(""), false).validate(fleet)).isEmpty();
        assertThat(fleet.getReplicaSets()).hasSize(1);
        return fleet.getReplicaSets().get(0);
    }

    private static JsonNode read(String name) throws Exception {
        try (InputStream in = FleetEntryDraftTest.class.getResourceAsStream("/terraform/" + name)) {
            return JSON.readTree(in);
        }
    }
}
