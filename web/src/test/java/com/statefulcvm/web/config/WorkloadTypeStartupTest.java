package com.statefulcvm.web.config;

import com.statefulcvm.fleet.FleetDefinitionException;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.budget.DisruptionBudget;
import com.statefulcvm.web.OrchestratorApplication;
import com.statefulcvm.web.config.FleetConfiguration.ValidatedFleet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A workload type is a descriptor in the configuration and its diagrams: a set of a declared type gets the declared
 * quorum, and a descriptor with an unknown key or a value that makes no sense, or a type's diagram without one, stops
 * the start naming the key or the file.
 */
class WorkloadTypeStartupTest {

    @TempDir
    Path processes;

    /** As command-line arguments: above application.yaml (its file database and processes directory). */
    private ConfigurableApplicationContext run(String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "spring.datasource.url=jdbc:h2:mem:workload-types-"
                        + System.nanoTime() + ";DB_CLOSE_DELAY=-1", "spring.config.import=", "orchestrator.observe.enabled=false",
                "simulator.state-file=", "orchestrator.processes-dir=" + processes,
                "orchestrator.fleet.replica-sets[0].name=store",
                "orchestrator.fleet.replica-sets[0].replicas=5",
                "orchestrator.fleet.replica-sets[0].update-policy.max-unavailable=4",
                "orchestrator.fleet.replica-sets[0].docker-compose=services: {kv: {image: kv}}"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(OrchestratorApplication.class).run(all.stream().map(p -> "--" + p).toArray(String[]::new));
    }

    private Throwable startFails(String... properties) {
        Throwable failure = catchThrowable(() -> run(properties).close());
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).as(String.valueOf(failure)).isInstanceOf(FleetDefinitionException.class);
        return cause;
    }

    @Test
    void aDroppedInTypeGetsTheQuorumItsDescriptorDeclares() throws Exception {
        drainAndRejoin("kv");
        try (ConfigurableApplicationContext context = run("orchestrator.workload-types.kv.quorum=majority",
                "orchestrator.workload-types.kv.min-replicas=3", "orchestrator.workload-types.kv.hooks=drain",
                "orchestrator.fleet.replica-sets[0].workload-type=kv")) {
            ReplicaSetSpec store = context.getBean(ValidatedFleet.class).fleet().getReplicaSets().get(0);
            DisruptionBudget budget = DisruptionBudget.of(store);
            assertThat(budget.describe()).isEqualTo("quorum 3 of 5, tolerates 2 down");
            assertThat(budget.disruptionsAllowed()).as("maxUnavailable 4 capped at the majority's tolerance").isEqualTo(2);
            assertThat(store.minReplicas()).isEqualTo(3);
            assertThat(store.rejoinDoesWork()).isFalse();
            assertThat(store.drainDoesWork()).isTrue();
        }
    }

    @Test
    void aTypesDiagramWithoutADescriptorStopsTheStartNamingTheFile() throws Exception {
        drainAndRejoin("kv");
        Throwable cause = startFails("orchestrator.fleet.replica-sets[0].workload-type=kv");
        assertThat(cause.getMessage())
                .contains(processes.resolve("drain-kv.bpmn").toAbsolutePath() + ": process 'drain-kv' is a procedure of workload type 'kv', which has"
                        + " no descriptor: declare it under orchestrator.workload-types.kv")
                .contains("rejoin-kv.bpmn: process 'rejoin-kv'");
    }

    @Test
    void aMisspeltKeyOrAMeaninglessValueOfADescriptorIsRefused() throws Exception {
        drainAndRejoin("kv");
        Throwable misspelt = startFails("orchestrator.workload-types.kv.quorm=majority", "orchestrator.fleet.replica-sets[0].workload-type=kv");
        assertThat(misspelt.getMessage()).contains("orchestrator.workload-types.kv.quorm: unknown key of a workload type's descriptor");
        Throwable meaningless = startFails("orchestrator.workload-types.kv.quorum=most", "orchestrator.fleet.replica-sets[0].workload-type=kv");
        assertThat(meaningless.getMessage()).contains("orchestrator.workload-types.kv.quorum: must be majority, all, one or a number"
                + " of members from 1 (was 'most')");
        Throwable hook = startFails("orchestrator.workload-types.kv.hooks=drain,reboot", "orchestrator.fleet.replica-sets[0].workload-type=kv");
        assertThat(hook.getMessage()).contains("orchestrator.workload-types.kv.hooks");
    }

    @Test
    void aTypeWhoseReplacementIsANewMemberNeedsItsLeaveAddAndJoinProcedures() throws Exception {
        drainAndRejoin("kv");
        Throwable missing = startFails("orchestrator.workload-types.kv.quorum=majority",
                "orchestrator.workload-types.kv.replacement-is-new-member=true", "orchestrator.fleet.replica-sets[0].workload-type=kv");
        assertThat(missing.getMessage()).contains("orchestrator.workload-types.kv.replacement-is-new-member: a replacement then runs"
                + " the type's leave, add and join procedures, and leave-kv.bpmn, add-kv.bpmn, join-kv.bpmn are not among the deployed ones");

        for (String hook : List.of("leave", "add", "join")) {
            String bpmn = Files.readString(Path.of("../processes/src/main/resources/processes/" + hook + "-generic.bpmn"))
                    .replace(hook + "-generic", hook + "-kv");
            Files.writeString(processes.resolve(hook + "-kv.bpmn"), bpmn);
        }
        try (ConfigurableApplicationContext context = run("orchestrator.workload-types.kv.quorum=majority",
                "orchestrator.workload-types.kv.replacement-is-new-member=true", "orchestrator.fleet.replica-sets[0].workload-type=kv")) {
            ReplicaSetSpec store = context.getBean(ValidatedFleet.class).fleet().getReplicaSets().get(0);
            assertThat(store.replacementIsNewMember()).isTrue();
        }
    }

    /** The example pair of docs/examples/hooks, renamed for the type. */
    private void drainAndRejoin(String type) throws Exception {
        Path examples = Path.of("../docs/examples/hooks");
        for (String hook : List.of("drain", "rejoin")) {
            String bpmn = Files.readString(examples.resolve(hook + "-redis.bpmn")).replace(hook + "-redis", hook + "-" + type);
            Files.writeString(processes.resolve(hook + "-" + type + ".bpmn"), bpmn);
        }
    }
}
