// wrk (C, its own process) as the load generator. autocannon parses responses in JavaScript, in the
// bench's process: on a body of random-looking bytes (a gzipped calendar week, 240 KB) it tops out near
// 250 req/s whatever the server does, where wrk reads the same bytes from the same bare route at
// ~14,000 req/s. Large answers are measured with wrk; `BENCH_LOAD=autocannon` forces the old generator.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Prints one JSON line after the run: the counts and the latency percentiles (µs). */
const SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  local q = {}
  for i = 1, 999 do q[i] = latency:percentile(i / 10) end
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"quantilesUs":[%s]}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write, e.timeout, latency:percentile(50), latency:percentile(99), table.concat(q, ',')))
end
`;

/** `quantilesUs[i]`: the latency at the ((i + 1) / 10)th percentile (0.1 … 99.9), so slices can be merged. */
export type WrkResult = {
  requests: number;
  durationUs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50Us: number;
  p99Us: number;
  quantilesUs: number[];
};

let available: boolean | undefined;
/** Whether `wrk` is on the PATH (Debian's package `wrk`). */
export function hasWrk(): boolean {
  if (available === undefined) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch (err) {
      // wrk --version prints its banner and exits 1: found all the same.
      available = (err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as { status?: number }).status !== 127;
    }
  }
  return available;
}

let scriptPath: string | undefined;

/** One run: one wrk thread (the server has the other core), `connections` kept open for `durationSec`. */
export function runWrk(url: string, headers: Record<string, string>, connections: number, durationSec: number): Promise<WrkResult> {
  scriptPath ??= (() => {
    const p = join(tmpdir(), `divan-bench-wrk-${process.pid}.lua`);
    writeFileSync(p, SCRIPT);
    return p;
  })();
  const args = ['-t1', `-c${connections}`, `-d${durationSec}s`, '--timeout', '10s', '-s', scriptPath];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  return new Promise((res, rej) =>
    execFile('wrk', args, { timeout: (durationSec + 30) * 1000 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (!line) return rej(new Error(`wrk gave no result${err ? `: ${err.message}` : ''}\n${stdout}${stderr}`));
      res(JSON.parse(line.slice('WRK_RESULT '.length)) as WrkResult);
    }),
  );
}
