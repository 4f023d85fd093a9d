package com.statefulcvm.delegates.admission;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.InstanceRecord;
import com.statefulcvm.fleet.ReplicaSetSpec;
import com.statefulcvm.fleet.admission.BootMarker;
import com.statefulcvm.fleet.admission.Fence;
import com.statefulcvm.fleet.admission.Refusal;
import com.statefulcvm.fleet.FencePolicy;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static com.statefulcvm.delegates.heal.RoundFixture.NOW;
import static com.statefulcvm.delegates.heal.RoundFixture.cvm;
import static com.statefulcvm.delegates.heal.RoundFixture.record;
import static com.statefulcvm.delegates.heal.RoundFixture.running;
import static com.statefulcvm.delegates.heal.RoundFixture.set;
import static org.assertj.core.api.Assertions.assertThat;

/** The admission verdicts of one round: each rule, and what happens when it is taken away. */
class AdmissionEnforcerTest {

    private final ReplicaSetSpec spec = set("adm", 1);
    private final CvmInfo up = running("adm-0", "inst-0");
    private final Instant attestedAt = NOW.minusSeconds(300);

    private AdmissionEnforcer.Verdicts judge(InstanceRecord record, Map<Integer, Fence> fences, Map<Integer, Instant> boots) {
        return AdmissionEnforcer.judge(spec, Map.of(0, up), Map.of(0, record), fences, Map.of(), boots, NOW);
    }

    @Test
    void anInstanceAttestedForTheBootItRunsIsAdmitted() {
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, true, true, attestedAt), Map.of(),
                Map.of(0, attestedAt.minusSeconds(60)));
        assertThat(verdicts.notAdmitted(0)).isNull();
        assertThat(verdicts.reattest()).isEmpty();
        assertThat(verdicts.fenced()).isEmpty();
    }

    @Test
    void aBootThatBeganAfterTheAttestationIsReattestedAndItsVerdictForgotten() {
        Instant boot = attestedAt.plus(BootMarker.TOLERANCE).plusSeconds(1);
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, true, true, attestedAt), Map.of(), Map.of(0, boot));
        AdmissionEnforcer.Reattest again = verdicts.reattest().get(0);
        assertThat(again.reason()).startsWith("restarted since its last attestation");
        assertThat(again.cvm()).isEqualTo(up);
        assertThat(again.forgotten().attested()).as("the old verdict is forgotten meanwhile").isNull();
        assertThat(again.forgotten().healthy()).isNull();
        assertThat(again.forgotten().condition()).startsWith("Awaiting attestation: restarted since");
        assertThat(verdicts.notAdmitted(0)).startsWith("not admitted (restarted since its last attestation");
    }

    @Test
    void withinTheBootMarkersToleranceTheAttestedBootCounts() {
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, true, true, attestedAt), Map.of(),
                Map.of(0, attestedAt.plus(BootMarker.TOLERANCE)));
        assertThat(verdicts.notAdmitted(0)).isNull();
    }

    @Test
    void anInstanceNeverAttestedIsReattestedWithNothingToForget() {
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, null, null, null), Map.of(), Map.of());
        assertThat(verdicts.reattest().get(0).reason()).isEqualTo("no attestation of its current boot");
        assertThat(verdicts.reattest().get(0).forgotten()).isNull();
    }

    @Test
    void aRefusedVerdictIsAttestedAgain() {
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, false, false, attestedAt), Map.of(), Map.of());
        assertThat(verdicts.reattest().get(0).reason()).isEqualTo("its last attestation failed");
    }

    @Test
    void aSetThatDoesNotRequireAttestationAdmitsEveryRunningInstance() {
        spec.getAttestation().setRequired(false);
        assertThat(judge(record(up, 0, null, null, null), Map.of(), Map.of()).notAdmitted(0)).isNull();
    }

    @Test
    void aFencedSlotIsHeldAndItsRunningCvmStoppedAgainUnderStop() {
        Fence fence = new Fence("adm", 0, "inst-0", FencePolicy.STOP, "QUOTE_INVALID", NOW.minusSeconds(60), "attest");
        AdmissionEnforcer.Verdicts verdicts = judge(record(up, 0, true, true, attestedAt), Map.of(0, fence), Map.of());
        assertThat(verdicts.notAdmitted(0)).isEqualTo("fenced (stopped): attestation failed: QUOTE_INVALID; readmit it to bring it back");
        assertThat(verdicts.fenced().get(0).stopAgain()).isEqualTo(up);
        assertThat(verdicts.reattest()).as("a fenced slot is not re-attested by the monitor").isEmpty();
    }

    @Test
    void aFencedSlotUnderDrainOrAlreadyStoppedIsNotStoppedAgain() {
        Fence drained = new Fence("adm", 0, "inst-0", FencePolicy.DRAIN, "ADMISSION_REJECTED", NOW, "attest");
        assertThat(judge(record(up, 0, true, true, attestedAt), Map.of(0, drained), Map.of()).fenced().get(0).stopAgain()).isNull();
        Fence stopped = new Fence("adm", 0, "inst-0", FencePolicy.STOP, "QUOTE_INVALID", NOW, "attest");
        CvmInfo down = cvm("adm-0", "inst-0", "stopped", false);
        AdmissionEnforcer.Verdicts verdicts = AdmissionEnforcer.judge(spec, Map.of(0, down), Map.of(0, record(down, 0, false, null, null)),
                Map.of(0, stopped), Map.of(), Map.of(), NOW);
        assertThat(verdicts.fenced().get(0).stopAgain()).isNull();
        assertThat(verdicts.notAdmitted(0)).startsWith("fenced (stopped)");
    }

    @Test
    void anInstanceThatIsNotUpOrNotSettledIsLeftToItsHealth() {
        CvmInfo updating = cvm("adm-0", "inst-0", "updating", true);
        AdmissionEnforcer.Verdicts verdicts = AdmissionEnforcer.judge(spec, Map.of(0, updating),
                Map.of(0, record(updating, 0, null, null, null)), Map.of(), Map.of(), Map.of(), NOW);
        assertThat(verdicts.notAdmitted(0)).isNull();
        assertThat(verdicts.reattest()).isEmpty();
    }

    @Test
    void aSlotThatAProcedureHoldsIsNotJudged() {
        // the caller leaves held slots out of the records: the procedure attests what it brings up
        AdmissionEnforcer.Verdicts verdicts = AdmissionEnforcer.judge(spec, Map.of(0, up), Map.of(), Map.of(), Map.of(), Map.of(), NOW);
        assertThat(verdicts.reattest()).isEmpty();
        assertThat(verdicts.notAdmitted(0)).isNull();
    }

    /**
     * A slot refused beyond the disruption budget keeps running unadmitted: it is not probed or counted, and it is not
     * attested again every round for the boot that was refused (an approver decides); a new boot, or another
     * instance in the slot, is attested again. Without the refusal's rule it was re-attested, and refused, each round.
     */
    @Test
    void aRefusalKeptRunningIsHeldForTheBootThatWasRefusedAndAttestedAgainOnceItBootsAnew() {
        InstanceRecord refused = record(up, 0, null, false, attestedAt);
        Refusal refusal = new Refusal("adm", 0, "inst-0", "QUOTE_INVALID", "QUOTE_INVALID: failed quote.signature", null,
                attestedAt, "admit-instance 7");
        AdmissionEnforcer.Verdicts held = AdmissionEnforcer.judge(spec, Map.of(0, up), Map.of(0, refused), Map.of(),
                Map.of(0, refusal), Map.of(0, attestedAt.minusSeconds(60)), NOW);
        assertThat(held.reattest()).isEmpty();
        assertThat(held.notAdmitted(0)).startsWith("refused, kept running unadmitted").contains("QUOTE_INVALID");
        assertThat(held.fenced().get(0).stopAgain()).as("a refusal is no fence: nothing stops it").isNull();

        AdmissionEnforcer.Verdicts rebooted = AdmissionEnforcer.judge(spec, Map.of(0, up), Map.of(0, refused), Map.of(),
                Map.of(0, refusal), Map.of(0, attestedAt.plusSeconds(120)), NOW);
        assertThat(rebooted.reattest()).containsKey(0);

        Refusal ofAnother = new Refusal("adm", 0, "inst-old", "QUOTE_INVALID", "QUOTE_INVALID", null, attestedAt, "admit-instance 7");
        assertThat(AdmissionEnforcer.judge(spec, Map.of(0, up), Map.of(0, refused), Map.of(), Map.of(0, ofAnother),
                Map.of(), NOW).reattest()).containsKey(0);
    }
}
