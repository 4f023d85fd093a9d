'use strict';
// Verifies every vector of the manifest written by AttestationBenchmark with @phala/dcap-qvl and prints
// {version, node, warmup, batches, batchRuns, results: [{name, valid, status, advisoryIds, error, ms}]} as JSON.
// ms is the median of batch means of the same call repeated after a warm-up, measured as on the Java side.
const fs = require('fs');
const path = require('path');
const { QuoteVerifier } = require('@phala/dcap-qvl');
const { version } = require('@phala/dcap-qvl/package.json');

const WARMUP = Number(process.env.BENCH_WARMUP || 300);
const BATCHES = Number(process.env.BENCH_BATCHES || 9);
const BATCH_RUNS = Number(process.env.BENCH_BATCH_RUNS || 15);

const manifestPath = process.argv[2];
if (!manifestPath) {
  console.error('usage: node verify-dcap-qvl.js DIR/manifest.json');
  process.exit(2);
}
const dir = path.dirname(manifestPath);
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

function once(verifier, quote, collateral, at) {
  try {
    const report = verifier.verify(quote, collateral, at);
    return { valid: true, status: report.status, advisoryIds: report.advisory_ids, error: null };
  } catch (e) {
    return { valid: false, status: null, advisoryIds: [], error: e.message };
  }
}

function medianOfBatches(verify) {
  for (let i = 0; i < BATCH_RUNS * 3; i++) verify();
  const means = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < BATCH_RUNS; i++) verify();
    means.push(Number(process.hrtime.bigint() - start) / 1e6 / BATCH_RUNS);
  }
  means.sort((x, y) => x - y);
  return means[Math.floor(BATCHES / 2)];
}

const results = manifest.map((vector, index) => {
  const quote = fs.readFileSync(path.join(dir, vector.quote));
  const collateral = JSON.parse(fs.readFileSync(path.join(dir, vector.collateral), 'utf8'));
  const verifier = vector.rootCa
    ? QuoteVerifier.newWithRootCa(fs.readFileSync(path.join(dir, vector.rootCa)))
    : QuoteVerifier.newProd();
  const verdict = once(verifier, quote, collateral, vector.at);
  if (index === 0) {
    // Warm the full (valid) path, as the Java side does.
    for (let i = 0; i < WARMUP; i++) once(verifier, quote, collateral, vector.at);
  }
  const ms = medianOfBatches(() => once(verifier, quote, collateral, vector.at));
  return { name: vector.name, ...verdict, ms };
});

process.stdout.write(JSON.stringify({
  version, node: process.version, warmup: WARMUP, batches: BATCHES, batchRuns: BATCH_RUNS, results,
}, null, 2));
process.stdout.write('\n');
