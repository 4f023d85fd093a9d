package com.statefulcvm.connectors.attestation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Side-by-side benchmark against @phala/dcap-qvl (benchmarks/attestation/run.sh drives it; not part of the tests).
 * {@code write DIR} puts the vectors (real ones and tampered copies) into DIR with a manifest for the node script;
 * {@code compare DIR} verifies the same vectors here, reads the node results and prints both with the timing ratio.
 */
public final class AttestationBenchmark {

    /** Warm-up runs of the full (valid) path before anything is timed: C2 needs a few thousand on two cores. */
    private static final int WARMUP = Integer.getInteger("bench.warmup", 3000);
    private static final int BATCHES = Integer.getInteger("bench.batches", 15);
    private static final int BATCH_RUNS = Integer.getInteger("bench.batchRuns", 40);

    /** One vector: a quote, its collateral, the verification time and optionally a root other than Intel's. */
    private record Vector(String name, byte[] quote, Collateral collateral, Instant at, X509Certificate root) {
    }

    private AttestationBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !List.of("write", "compare").contains(args[0])) {
            System.err.println("usage: AttestationBenchmark write|compare DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        if (args[0].equals("write")) {
            write(dir);
        } else {
            compare(dir);
        }
    }

    private static List<Vector> vectors() throws Exception {
        byte[] quote = AttestationVectors.dcapQuote();
        Collateral collateral = AttestationVectors.dcapCollateral();
        String[] pems = QuoteSurgery.pemBlocks(QuoteParser.parse(quote).pckChainPem());
        Collateral forged = new Collateral(collateral.tcbInfo().replace("\"tcbEvaluationDataNumber\":17",
                "\"tcbEvaluationDataNumber\":18"), collateral.tcbInfoSignature(), collateral.tcbInfoIssuerChain(),
                collateral.qeIdentity(), collateral.qeIdentitySignature(), collateral.qeIdentityIssuerChain(),
                collateral.pckCrl(), collateral.rootCaCrl(), collateral.pckCrlIssuerChain());
        X509Certificate tcbSigning = CertChains.parsePem(collateral.tcbInfoIssuerChain(), "tcb").get(0);
        Instant in = AttestationVectors.IN_WINDOW;
        return List.of(
                new Vector("dcap quote, in window", quote, collateral, in, null),
                new Vector("dcap quote, today (expired)", quote, collateral, AttestationVectors.TODAY, null),
                new Vector("TD report byte flipped", QuoteSurgery.flip(quote, QuoteSurgery.MRTD + 5), collateral,
                        in, null),
                new Vector("QE report byte flipped", QuoteSurgery.flip(quote, 632 + 4 + 134 + 300), collateral, in,
                        null),
                new Vector("PCK chain cut to leaf", QuoteSurgery.withPckChain(quote, pems[0] + "\n"), collateral,
                        in, null),
                new Vector("TCB info altered", quote, forged, in, null),
                new Vector("wrong trust anchor", quote, collateral, in, tcbSigning),
                new Vector("dstack quote, foreign collateral", AttestationVectors.dstackEvidence().quote(),
                        collateral, in, null));
    }

    private static void write(Path dir) throws Exception {
        Files.createDirectories(dir);
        ArrayNode manifest = AttestationJson.MAPPER.createArrayNode();
        int i = 0;
        for (Vector v : vectors()) {
            String base = "v" + i++;
            Files.write(dir.resolve(base + ".quote"), v.quote());
            Files.writeString(dir.resolve(base + ".collateral.json"), v.collateral().toJson());
            ObjectNode entry = manifest.addObject();
            entry.put("name", v.name());
            entry.put("quote", base + ".quote");
            entry.put("collateral", base + ".collateral.json");
            entry.put("at", v.at().getEpochSecond());
            if (v.root() != null) {
                Files.write(dir.resolve(base + ".root.der"), v.root().getEncoded());
                entry.put("rootCa", base + ".root.der");
            }
        }
        Files.writeString(dir.resolve("manifest.json"), manifest.toPrettyString());
    }

    private static void compare(Path dir) throws Exception {
        JsonNode theirs = AttestationJson.MAPPER.readTree(Files.readString(dir.resolve("dcap-qvl.json"),
                StandardCharsets.UTF_8));
        LocalTdxVerifier verifier = new LocalTdxVerifier();
        List<Vector> vectors = vectors();
        System.out.printf(Locale.ROOT, "%-34s | %-30s | %-44s | %9s | %9s%n", "vector", "ours (LocalTdxVerifier)",
                "theirs (@phala/dcap-qvl " + theirs.path("version").asText("?") + ")", "ours ms", "theirs ms");
        System.out.println("-".repeat(140));
        Evidence warm = new Evidence(vectors.get(0).quote(), null, null, vectors.get(0).collateral());
        VerifyOptions warmOptions = VerifyOptions.at(vectors.get(0).at()).withRequireEventLog(false);
        for (int i = 0; i < WARMUP; i++) {
            verifier.verify(warm, warmOptions);
        }
        double oursValid = Double.NaN;
        double theirsValid = Double.NaN;
        boolean agree = true;
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            Vector v = vectors.get(i);
            VerifyOptions base = VerifyOptions.at(v.at()).withRequireEventLog(false);
            VerifyOptions options = v.root() == null ? base : base.withTrustAnchors(List.of(v.root()));
            Evidence evidence = new Evidence(v.quote(), null, null, v.collateral());
            Verdict verdict = verifier.verify(evidence, options);
            double ms = time(() -> verifier.verify(evidence, options));
            JsonNode their = theirs.path("results").get(i);
            boolean theirValid = their.path("valid").asBoolean();
            String ourText = verdict.valid() ? "ACCEPT " + verdict.tcbStatus()
                    : "REJECT " + verdict.failedChecks().get(0).name();
            String theirText = theirValid ? "ACCEPT " + their.path("status").asText()
                    : "REJECT " + abbreviate(their.path("error").asText(), 36);
            System.out.printf(Locale.ROOT, "%-34s | %-30s | %-44s | %9.3f | %9.3f%n", v.name(), ourText, theirText,
                    ms, their.path("ms").asDouble());
            boolean same = verdict.valid() == theirValid
                    && (!theirValid || their.path("status").asText().equals(verdict.tcbStatus()));
            if (!same) {
                agree = false;
                disagreements.add(v.name());
            }
            if (i == 0) {
                oursValid = ms;
                theirsValid = their.path("ms").asDouble();
            }
        }
        System.out.println("-".repeat(140));
        Evidence dstack = AttestationVectors.dstackEvidence();
        VerifyOptions dstackOptions = VerifyOptions.at(AttestationVectors.TODAY).withRequireCollateral(false);
        Verdict dstackVerdict = verifier.verify(dstack, dstackOptions);
        System.out.printf(Locale.ROOT, "ours only: dstack GetQuote capture incl. RTMR3 replay and identity,"
                + " no collateral: %s, %.3f ms%n", dstackVerdict.valid() ? "ACCEPT" : "REJECT",
                time(() -> verifier.verify(dstack, dstackOptions)));
        System.out.println(agree ? "verdicts: same accept/reject and TCB status on every vector"
                : "verdicts DIFFER on: " + disagreements);
        System.out.printf(Locale.ROOT, "warm per-verification time, valid dcap vector: ours %.3f ms, theirs %.3f ms,"
                + " ratio ours/theirs = %.3f (target <= 0.5)%n", oursValid, theirsValid, oursValid / theirsValid);
        System.out.printf(Locale.ROOT, "(times: median of %d batch means of %d runs after %d warm-up runs; java %s;"
                + " node %s, median of %d batches of %d after %d warm-up runs)%n", BATCHES, BATCH_RUNS, WARMUP,
                System.getProperty("java.version"), theirs.path("node").asText("?"), theirs.path("batches").asInt(),
                theirs.path("batchRuns").asInt(), theirs.path("warmup").asInt());
        if (!agree) {
            System.exit(1);
        }
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    /**
     * Median of the batch means: a shared two-core machine stalls now and then, and one stall should not decide the
     * figure. The node script measures its side the same way.
     */
    private static double time(Runnable verification) {
        for (int i = 0; i < BATCH_RUNS * 5; i++) {
            verification.run();
        }
        double[] means = new double[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < BATCH_RUNS; i++) {
                verification.run();
            }
            means[b] = (System.nanoTime() - start) / 1e6 / BATCH_RUNS;
        }
        java.util.Arrays.sort(means);
        return means[BATCHES / 2];
    }
}
