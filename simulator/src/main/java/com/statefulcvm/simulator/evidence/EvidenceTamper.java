package com.statefulcvm.simulator.evidence;

import static com.statefulcvm.simulator.evidence.EvidenceBytes.hex;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.sha256;
import static com.statefulcvm.simulator.evidence.EvidenceBytes.utf8;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A fault injected into one CVM's evidence ({@code POST /simulator/_admin/cvms/{name}/evidence}). Sticky until set back
 * to {@link #NONE}.
 */
public enum EvidenceTamper {

    /** Honest evidence. */
    NONE("none"),
    /** The CVM attests another compose hash, in a consistent event log and quote: only the admission policy can tell. */
    COMPOSE_HASH("compose-hash"),
    /** The CVM attests another app id, consistently: only the admission policy can tell. */
    APP_ID("app-id"),
    /** The quote's RTMR3 holds one more runtime event than the log shows: the log no longer replays to it. */
    RTMR3("rtmr3"),
    /** One bit of the quote's ECDSA signature is flipped: the signature no longer verifies. */
    SIGNATURE("signature"),
    /** The CVM's compose runs no guest agent (an app made without dstack's agent): GetQuote finds nothing to answer, 502. */
    NO_AGENT("no-agent");

    private final String wireName;

    EvidenceTamper(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<EvidenceTamper> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }

    /** The names the admin endpoint accepts. */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(EvidenceTamper::wireName).toList();
    }

    /** What the CVM claims to be: the honest values, or the other app id / compose hash this tamper attests. */
    AttestedCvm claimed(AttestedCvm honest) {
        return switch (this) {
            case COMPOSE_HASH -> honest.withComposeHash(hex(sha256(utf8("tampered compose of " + honest.composeHash()))));
            case APP_ID -> honest.withAppId(hex(sha256(utf8("tampered app of " + honest.appId()))).substring(0, 40));
            default -> honest;
        };
    }

    /** True when RTMR3 is extended with a runtime event the log leaves out. */
    boolean hidesRuntimeEvent() {
        return this == RTMR3;
    }

    /** True when the quote's signature is broken after signing. */
    boolean breaksSignature() {
        return this == SIGNATURE;
    }
}
