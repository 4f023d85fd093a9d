#!/usr/bin/env bash
# Attestation verification, side by side: our LocalTdxVerifier (Java) and @phala/dcap-qvl (JavaScript) on the same
# vectors (connectors/src/test/resources/test-vectors/attestation plus tampered copies), with verdicts and warm
# per-verification times.
# Usage, from anywhere: benchmarks/attestation/run.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -d "$here/node_modules/@phala/dcap-qvl" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

cd "$repo"
mvn -B -q -Dstyle.color=never -pl connectors test-compile dependency:build-classpath \
    -Dmdep.outputFile="$work/classpath" -Dmdep.includeScope=test
classpath="$repo/connectors/target/test-classes:$repo/connectors/target/classes:$(cat "$work/classpath")"
main=com.statefulcvm.connectors.attestation.AttestationBenchmark

# AttestationBenchmark reads the vectors from the test classpath (connectors/target/test-classes), as the tests do.
java -cp "$classpath" "$main" write "$work/vectors"
node "$here/verify-dcap-qvl.js" "$work/vectors/manifest.json" > "$work/vectors/dcap-qvl.json"
java -cp "$classpath" "$main" compare "$work/vectors"
