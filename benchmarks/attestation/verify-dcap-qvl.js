'use strict';
// Verifies every vector of the manifest written by AttestationBenchmark with @phala/dcap-qvl and prints
// {version, node, warmup, runs, results: [{name, valid, status, advisoryIds, error, ms}]} as JSON on stdout.
// ms is the warm mean per verification: the same call repeated after a warm-up, as on the Java side.
const fs = require('fs');
const path = require('path');
const { QuoteVerifier } = require('@phala/dcap-qvl');
const { version } = require('@phala/dcap-qvl/package.json');

const WARMUP = Number(process.env.BENCH_WARMUP || 30);
const RUNS = Number(process.env.BENCH_RUNS || 100);

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

const results = manifest.map((vector) => {
  const quote = fs.readFileSync(path.join(dir, vector.quote));
  const collateral = JSON.parse(fs.readFileSync(path.join(dir, vector.collateral), 'utf8'));
  const verifier = vector.rootCa
    ? QuoteVerifier.newWithRootCa(fs.readFileSync(path.join(dir, vector.rootCa)))
    : QuoteVerifier.newProd();
  const verdict = once(verifier, quote, collateral, vector.at);
  for (let i = 0; i < WARMUP; i++) once(verifier, quote, collateral, vector.at);
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) once(verifier, quote, collateral, vector.at);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / RUNS;
  return { name: vector.name, ...verdict, ms };
});

process.stdout.write(JSON.stringify({ version, node: process.version, warmup: WARMUP, runs: RUNS, results }, null, 2));
process.stdout.write('\n');
