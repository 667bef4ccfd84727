import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { root } from './util';

export type Row = {
  section: string;
  metric: string;
  value: number | null;
  unit: string;
  /** e.g. '≥ 0.35', '< 2000'; empty when the row is informational. */
  target: string;
  pass: boolean | null;
  note?: string;
};

export const resultsFile = resolve(root, 'bench/results/latest.json');
/** The smoke run's (BENCH_SMOKE=1): its tiny figures never overwrite a real run's. */
export const smokeResultsFile = resolve(root, 'bench/results/smoke.json');

export class Report {
  readonly rows: Row[] = [];
  readonly errors: { section: string; error: string }[] = [];
  readonly details: Record<string, unknown> = {};

  /** A figure; with `target` it is checked (`min`: value ≥ min, `max`: value < max unless `inclusive`). */
  add(
    section: string,
    metric: string,
    value: number,
    unit: string,
    check?: { min?: number; max?: number; inclusive?: boolean },
    note?: string,
  ) {
    let target = '';
    let pass: boolean | null = null;
    if (check?.min !== undefined) {
      target = `≥ ${check.min}`;
      pass = value >= check.min;
    } else if (check?.max !== undefined) {
      target = `${check.inclusive ? '≤' : '<'} ${check.max}`;
      pass = check.inclusive ? value <= check.max : value < check.max;
    }
    this.rows.push({ section, metric, value, unit, target, pass, note });
  }

  fail(section: string, err: unknown) {
    const error = err instanceof Error ? err.message : String(err);
    this.errors.push({ section, error });
    this.rows.push({ section, metric: 'ERROR', value: null, unit: '', target: '', pass: false, note: error.split('\n')[0] });
  }

  skip(section: string, why: string) {
    this.rows.push({ section, metric: 'skipped', value: null, unit: '', target: '', pass: null, note: why });
  }

  print() {
    const fmt = (v: number | null) =>
      v === null ? '—' : Number.isInteger(v) || Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(1) : v.toFixed(2);
    const table = [
      ['Section', 'Metric', 'Value', 'Target', 'Result', 'Note'],
      ...this.rows.map((r) => [
        r.section,
        r.metric,
        `${fmt(r.value)} ${r.unit}`.trim(),
        r.target ? `${r.target} ${r.unit}`.trim() : '',
        r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL',
        r.note ?? '',
      ]),
    ];
    const widths = table[0]!.map((_, c) => Math.min(60, Math.max(...table.map((row) => row[c]!.length))));
    const line = (row: string[]) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ');
    console.log('\n' + line(table[0]!));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of table.slice(1)) console.log(line(row));
    for (const e of this.errors) console.log(`\n[${e.section}] ${e.error}`);
  }

  write(config: Record<string, unknown>, file = resultsFile) {
    mkdirSync(dirname(file), { recursive: true });
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryMb: Math.round(totalmem() / 2 ** 20),
      node: process.version,
      platform: process.platform,
    };
    const json = { date: new Date().toISOString(), machine, config, rows: this.rows, errors: this.errors, details: this.details };
    writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
  }
}
