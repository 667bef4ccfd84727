#!/usr/bin/env node
// The slowest test files of one or more vitest JSON reports (`TEST_REPORT=<file>.json`, or `--reporter=json --outputFile=…`):
//   node scripts/slowest-tests.mjs /tmp/divan-unit.json [/tmp/other.json …] [--top 20]
// With <file>.files.json beside a report (scripts/file-times-reporter.mjs), a file's time is all of it: import,
// set-up hooks and tests, and its project is shown; without, only its tests' time (vitest's JSON leaves hooks out).
import { existsSync, readFileSync } from 'node:fs';
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
  const wall = r.testResults?.length ? (Math.max(...r.testResults.map((f) => f.endTime)) - r.startTime) / 1000 : 0;
  const whole = report.replace(/\.json$/, '') + '.files.json';
  const rows = existsSync(whole)
    ? JSON.parse(readFileSync(whole, 'utf8')).map((f) => ({ name: f.file, s: f.seconds, tests: f.tests, project: f.project }))
    : (r.testResults ?? []).map((f) => ({
        name: f.name,
        s: Math.max(0, f.endTime - f.startTime) / 1000,
        tests: f.assertionResults?.length ?? 0,
      }));
  const sum = rows.reduce((s, f) => s + f.s, 0);
  console.log(
    `${report}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped; ` +
      `${rows.length} files, ${existsSync(whole) ? 'their whole times' : 'their tests alone'} sum to ${sum.toFixed(0)} s; wall ${wall.toFixed(0)} s`,
  );
  for (const f of rows) files.push({ ...f, name: relative(process.cwd(), f.name), report });
}
files.sort((a, b) => b.s - a.s);
const width = Math.max(...files.slice(0, top).map((f) => f.name.length));
for (const f of files.slice(0, top))
  console.log(
    `${f.s.toFixed(1).padStart(7)} s  ${String(f.tests).padStart(4)} tests  ${f.name.padEnd(width)}` +
      `${f.project ? `  ${f.project}` : ''}${args.length > 1 ? `  (${f.report})` : ''}`,
  );
