package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.hex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.utf8;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The DCAP collateral of the simulated platform, signed by the {@link SimulatedTdxAuthority}'s TCB signing key:
 * TCB info v3 ({@code id "TDX"}) and QE identity v2 ({@code id "TD_QE"}) in the JSON shapes of Intel's PCS v4, issued
 * a day before the time asked for and valid for 30 days after it, with the simulated platform's TCB level
 * {@code UpToDate}. Each document is made when asked for, so it never runs stale however long the simulator runs.
 */
public final class SimulatedCollateral {

    static final Duration ISSUED_BEFORE = Duration.ofDays(1);
    static final Duration VALID_AFTER = Duration.ofDays(30);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[][] SGX_COMPONENT_NAMES = {
        {"BIOS", "Early Microcode Update"}, {"OS/VMM", "SGX Late Microcode Update"}, {"OS/VMM", "TXT SINIT"},
        {"BIOS", null}, {"BIOS", null}, {"BIOS", null}, {null, null}, {"OS/VMM", "SEAMLDR ACM"}};
    private static final String[][] TDX_COMPONENT_NAMES = {
        {"OS/VMM", "TDX Module"}, {"OS/VMM", "TDX Module"}, {"OS/VMM", "TDX Late Microcode Update"}};
    private static final String ZERO_MRSIGNER = hex(new byte[48]);

    /** A signed document: the JSON text exactly as signed, and the raw r || s signature in hex. */
    public record Signed(String json, String signatureHex) {
    }

    private final SimulatedTdxAuthority authority;

    public SimulatedCollateral(SimulatedTdxAuthority authority) {
        this.authority = authority;
    }

    public SimulatedTdxAuthority authority() {
        return authority;
    }

    /** The simulated platform's FMSPC (upper-case hex, as PCS writes it). */
    public String fmspc() {
        return SimulatedPlatform.FMSPC;
    }

    /** TCB info v3 for TDX, issued a day before {@code now}. */
    public Signed tcbInfo(Instant now) {
        ObjectNode info = JSON.createObjectNode();
        info.put("id", "TDX");
        info.put("version", 3);
        dates(info, now);
        info.put("fmspc", SimulatedPlatform.FMSPC);
        info.put("pceId", SimulatedPlatform.PCE_ID);
        info.put("tcbType", 0);
        info.put("tcbEvaluationDataNumber", SimulatedPlatform.TCB_EVALUATION_DATA_NUMBER);
        ObjectNode module = info.putObject("tdxModule");
        moduleSigner(module);
        ObjectNode identity = info.putArray("tdxModuleIdentities").addObject();
        identity.put("id", String.format("TDX_%02X", SimulatedPlatform.TEE_TCB_SVN[1] & 0xff));
        moduleSigner(identity);
        ObjectNode moduleLevel = identity.putArray("tcbLevels").addObject();
        moduleLevel.putObject("tcb").put("isvsvn", SimulatedPlatform.TDX_MODULE_ISV_SVN);
        moduleLevel.put("tcbDate", SimulatedPlatform.TCB_DATE);
        moduleLevel.put("tcbStatus", "UpToDate");
        ObjectNode level = info.putArray("tcbLevels").addObject();
        ObjectNode tcb = level.putObject("tcb");
        components(tcb.putArray("sgxtcbcomponents"), SimulatedPlatform.TCB_LEVEL_SGX_COMPONENTS, SGX_COMPONENT_NAMES);
        tcb.put("pcesvn", SimulatedPlatform.TCB_LEVEL_PCE_SVN);
        components(tcb.putArray("tdxtcbcomponents"), SimulatedPlatform.TCB_LEVEL_TDX_COMPONENTS, TDX_COMPONENT_NAMES);
        level.put("tcbDate", SimulatedPlatform.TCB_DATE);
        level.put("tcbStatus", "UpToDate");
        return sign(info);
    }

    /** QE identity v2 of the TD quoting enclave, issued a day before {@code now}. */
    public Signed qeIdentity(Instant now) {
        ObjectNode identity = JSON.createObjectNode();
        identity.put("id", "TD_QE");
        identity.put("version", 2);
        dates(identity, now);
        identity.put("tcbEvaluationDataNumber", SimulatedPlatform.TCB_EVALUATION_DATA_NUMBER);
        identity.put("miscselect", "00000000");
        identity.put("miscselectMask", "FFFFFFFF");
        identity.put("attributes", "11000000000000000000000000000000");
        identity.put("attributesMask", "FBFFFFFFFFFFFFFF0000000000000000");
        identity.put("mrsigner", hex(SimulatedPlatform.QE_MR_SIGNER).toUpperCase(java.util.Locale.ROOT));
        identity.put("isvprodid", SimulatedPlatform.QE_ISV_PROD_ID);
        ObjectNode level = identity.putArray("tcbLevels").addObject();
        level.putObject("tcb").put("isvsvn", SimulatedPlatform.QE_ISV_SVN);
        level.put("tcbDate", SimulatedPlatform.TCB_DATE);
        level.put("tcbStatus", "UpToDate");
        return sign(identity);
    }

    /** PCS's answer body: {@code {"tcbInfo": <json as signed>, "signature": "<hex>"}}. */
    public static String tcbInfoBody(Signed tcbInfo) {
        return "{\"tcbInfo\":" + tcbInfo.json() + ",\"signature\":\"" + tcbInfo.signatureHex() + "\"}";
    }

    /** PCS's answer body: {@code {"enclaveIdentity": <json as signed>, "signature": "<hex>"}}. */
    public static String qeIdentityBody(Signed qeIdentity) {
        return "{\"enclaveIdentity\":" + qeIdentity.json() + ",\"signature\":\"" + qeIdentity.signatureHex() + "\"}";
    }

    private Signed sign(ObjectNode document) {
        String json = document.toString();
        return new Signed(json, hex(authority.signWithTcbSigningKey(utf8(json))));
    }

    private static void dates(ObjectNode node, Instant now) {
        Instant at = now.truncatedTo(ChronoUnit.SECONDS);
        node.put("issueDate", at.minus(ISSUED_BEFORE).toString());
        node.put("nextUpdate", at.plus(VALID_AFTER).toString());
    }

    private static void moduleSigner(ObjectNode node) {
        node.put("mrsigner", ZERO_MRSIGNER);
        node.put("attributes", "0000000000000000");
        node.put("attributesMask", "FFFFFFFFFFFFFFFF");
    }

    private static void components(ArrayNode array, int[] svns, String[][] names) {
        for (int i = 0; i < svns.length; i++) {
            ObjectNode component = array.addObject();
            component.put("svn", svns[i]);
            if (i < names.length && names[i][0] != null) {
                component.put("category", names[i][0]);
            }
            if (i < names.length && names[i][1] != null) {
                component.put("type", names[i][1]);
            }
        }
    }
}
