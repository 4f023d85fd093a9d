package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.concat;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.hex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.padded;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.unhex;

/**
 * The TD measurements a simulated CVM's quote carries and the event log it shows, derived together so that they agree
 * (or, under {@link EvidenceTamper#RTMR3}, disagree on purpose). The {@code /attestation} endpoint and
 * {@code GetQuote} both read them from here.
 *
 * @param eventLog   the log the CVM hands out
 * @param mrConfigId dstack's MRCONFIGID: {@code 0x01 || compose_hash || zeros} (48 bytes)
 */
public record CvmMeasurements(DstackEventLog eventLog, byte[] mrTd, byte[] mrConfigId, byte[] rtmr0, byte[] rtmr1,
                              byte[] rtmr2, byte[] rtmr3) {

    /** What RTMR3 holds beyond the log under {@link EvidenceTamper#RTMR3}. */
    static final String HIDDEN_EVENT = "unlogged-runtime-event";

    public static CvmMeasurements of(AttestedCvm honest, EvidenceTamper tamper) {
        AttestedCvm claimed = tamper.claimed(honest);
        DstackEventLog log = DstackEventLog.of(claimed);
        byte[] rtmr3 = log.rtmr(3);
        if (tamper.hidesRuntimeEvent()) {
            rtmr3 = DstackEventLog.extend(rtmr3, DstackEventLog.runtimeDigest(HIDDEN_EVENT, new byte[0]));
        }
        byte[] mrConfigId = padded(concat(new byte[] {1}, unhex(claimed.composeHash())), 48);
        return new CvmMeasurements(log, SimulatedPlatform.MRTD.clone(), mrConfigId, log.rtmr(0), log.rtmr(1),
                log.rtmr(2), rtmr3);
    }

    public String mrTdHex() {
        return hex(mrTd);
    }

    public String rtmrHex(int index) {
        return hex(switch (index) {
            case 0 -> rtmr0;
            case 1 -> rtmr1;
            case 2 -> rtmr2;
            case 3 -> rtmr3;
            default -> throw new IllegalArgumentException("RTMR" + index + " does not exist");
        });
    }
}
