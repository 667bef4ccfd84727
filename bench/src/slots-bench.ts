/**
 * `npm run bench:slots`: the time `freeSlots` (packages/core/src/booking/slots.ts) takes for a month of
 * the typical schedule — Monday to Friday 09:00–14:00 and 16:00–20:00 in Europe/Madrid, 50-minute
 * sessions, 10-minute gap, 80 sessions of the therapist in the month, two blocked dates, 24 hours to 2
 * months of notice — for a month with a clock change (March 2026) and one without (May 2026).
 *
 * Pure computation in this process, no server. After a warm-up, `BENCH_SLOTS_ROUNDS` rounds each time
 * `BENCH_SLOTS_CALLS` calls of the month, then as many calls of the baseline: a trivial loop that only
 * allocates the month's candidate slots (every grid time of every working day, as `Date`s) with no
 * zone, busy or notice logic. The two alternate, so a change in the machine's load weighs on both.
 * Reported: the median and p95 per-month time over rounds, the baseline's median, and
 * ratio = month / baseline. Target: a month well under a millisecond (< 1000 µs at the median).
 * Also, informational: the very first call (Intl formatters created) and a 2-year window.
 */
import { DEFAULT_TIME_ZONE, freeSlots, toInstant, type FreeSlotsInput } from '@divan/core';
import { resolve } from 'node:path';
import { Report } from './report';
import { envInt, root } from './util';

const TZ = DEFAULT_TIME_ZONE;
const ROUNDS = envInt('BENCH_SLOTS_ROUNDS', 40);
const CALLS = envInt('BENCH_SLOTS_CALLS', 50);
const WORKDAY = [
  { from: '09:00', to: '14:00' },
  { from: '16:00', to: '20:00' },
];
const GRID = ['09:00', '10:00', '11:00', '12:00', '13:00', '16:00', '17:00', '18:00', '19:00'];

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
function monthDays(year: number, month: number): string[] {
  const days: string[] = [];
  for (let d = 1; d <= 31; d++) {
    const date = new Date(Date.UTC(year, month - 1, d));
    if (date.getUTCMonth() !== month - 1) break;
    days.push(`${year}-${pad(month)}-${pad(d)}`);
  }
  return days;
}
const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

function monthInput(year: number, month: number): { input: FreeSlotsInput; grid: number[] } {
  const days = monthDays(year, month);
  const workdays = days.filter((d) => weekday(d) <= 5);
  const next = random(year * 100 + month);
  // 80 sessions on working days: most on the grid, some off it, 30 to 90 minutes long.
  const busy = Array.from({ length: 80 }, () => {
    const day = workdays[Math.floor(next() * workdays.length)]!;
    const time =
      next() < 0.7 ? GRID[Math.floor(next() * GRID.length)]! : `${pad(9 + Math.floor(next() * 10))}:${pad(Math.floor(next() * 12) * 5)}`;
    const start = toInstant(day, time, TZ);
    return { start, end: new Date(start.getTime() + (30 + Math.floor(next() * 61)) * 60_000) };
  });
  const first = days[0]!;
  const nextMonth = month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
  const input: FreeSlotsInput = {
    schedule: { 1: WORKDAY, 2: WORKDAY, 3: WORKDAY, 4: WORKDAY, 5: WORKDAY },
    timeZone: TZ,
    durationMinutes: 50,
    gapMinutes: 10,
    minNotice: { amount: 24, unit: 'hours' },
    maxNotice: { amount: 2, unit: 'months' },
    overrides: [
      { day: workdays[3]!, allDay: true },
      { day: workdays[10]!, allDay: false, from: '16:00', to: '18:00' },
    ],
    busy,
    from: toInstant(first, '00:00', TZ),
    to: toInstant(nextMonth, '00:00', TZ),
    now: new Date(toInstant(first, '12:00', TZ).getTime() - 2 * 86_400_000),
  };
  // The baseline's candidates, computed once outside the timing.
  const grid = workdays.flatMap((d) => GRID.map((t) => toInstant(d, t, TZ).getTime()));
  return { input, grid };
}

/** The trivial loop: allocate every candidate slot of the month. */
function baseline(grid: number[]): { start: Date; end: Date }[] {
  const out: { start: Date; end: Date }[] = [];
  for (const t of grid) out.push({ start: new Date(t), end: new Date(t + 50 * 60_000) });
  return out;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
let sink = 0;

function timePerCall(fn: () => { length: number }, calls: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += fn().length;
  return Number(process.hrtime.bigint() - t0) / 1000 / calls; // µs
}

function main() {
  const report = new Report();
  const details: Record<string, unknown> = {};

  const cold = monthInput(2026, 3);
  const t0 = process.hrtime.bigint();
  const firstSlots = freeSlots(cold.input);
  report.add(
    'Slots',
    'first call (cold)',
    Number(process.hrtime.bigint() - t0) / 1000,
    'µs',
    undefined,
    `${firstSlots.length} slots; Intl formatters created`,
  );

  for (const [year, month, label] of [
    [2026, 3, 'March 2026 (clock change)'],
    [2026, 5, 'May 2026'],
  ] as const) {
    const { input, grid } = monthInput(year, month);
    const count = freeSlots(input).length;
    for (let i = 0; i < 300; i++) sink += freeSlots(input).length + baseline(grid).length; // warm-up
    const slotTimes: number[] = [];
    const baseTimes: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        slotTimes.push(timePerCall(() => freeSlots(input), CALLS));
        baseTimes.push(timePerCall(() => baseline(grid), CALLS));
      } else {
        baseTimes.push(timePerCall(() => baseline(grid), CALLS));
        slotTimes.push(timePerCall(() => freeSlots(input), CALLS));
      }
    }
    slotTimes.sort((a, b) => a - b);
    baseTimes.sort((a, b) => a - b);
    const median = quantile(slotTimes, 0.5);
    const baseMedian = quantile(baseTimes, 0.5);
    const section = `Slots · ${label}`;
    report.add(section, 'month, median', median, 'µs', { max: 1000 }, `${count} free slots of ${grid.length} candidates, 80 busy`);
    report.add(section, 'month, p95 of rounds', quantile(slotTimes, 0.95), 'µs');
    report.add(section, 'baseline (allocate candidates), median', baseMedian, 'µs');
    report.add(section, 'ratio month / baseline', median / baseMedian, '×');
    details[label] = { slotTimesUs: slotTimes, baselineTimesUs: baseTimes, slots: count, candidates: grid.length };
  }

  // Informational: a public page asking two years at once (the function's cost grows with the days).
  const { input } = monthInput(2026, 1);
  const wide = { ...input, to: new Date(input.from.getTime() + 730 * 86_400_000), maxNotice: { amount: 24, unit: 'months' as const } };
  for (let i = 0; i < 20; i++) sink += freeSlots(wide).length;
  const wideTimes = Array.from({ length: 20 }, () => timePerCall(() => freeSlots(wide), 5)).sort((a, b) => a - b);
  report.add('Slots · 2 years', 'median', quantile(wideTimes, 0.5), 'µs', undefined, `${freeSlots(wide).length} slots`);

  report.details.slots = details;
  report.print();
  const file = resolve(root, 'bench/results/slots.json');
  report.write({ rounds: ROUNDS, callsPerRound: CALLS, timeZone: TZ, processTZ: process.env.TZ ?? null, sink }, file);
  console.log(`\nResults: ${file}`);
}

main();
