#!/usr/bin/env node
// The slowest test files of one or more vitest JSON reports (`--reporter=json --outputFile=…`):
//   node scripts/slowest-tests.mjs /tmp/divan-unit.json [/tmp/divan-pg.json …] [--top 20]
// Prints each file's wall time (its start to its end), its test count, and the passes' totals.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 20;
if (args.length === 0) {
  console.error('usage: node scripts/slowest-tests.mjs <report.json>… [--top N]');
  process.exit(2);
}

const files = [];
for (const report of args) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const seconds = (r.testResults ?? []).reduce((s, f) => s + Math.max(0, f.endTime - f.startTime), 0) / 1000;
  const wall = r.testResults?.length ? (Math.max(...r.testResults.map((f) => f.endTime)) - r.startTime) / 1000 : 0;
  console.log(
    `${report}: ${r.numTotalTestSuites ?? '?'} suites, ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped; ` +
      `files sum ${seconds.toFixed(0)} s, wall ${wall.toFixed(0)} s`,
  );
  for (const f of r.testResults ?? [])
    files.push({
      name: relative(process.cwd(), f.name),
      s: Math.max(0, f.endTime - f.startTime) / 1000,
      tests: f.assertionResults?.length ?? 0,
      report,
    });
}
files.sort((a, b) => b.s - a.s);
const width = Math.max(...files.slice(0, top).map((f) => f.name.length));
for (const f of files.slice(0, top))
  console.log(
    `${f.s.toFixed(1).padStart(7)} s  ${String(f.tests).padStart(4)} tests  ${f.name.padEnd(width)}${args.length > 1 ? `  (${f.report})` : ''}`,
  );
