// wrk with a distinct path per request (a Lua `request()` walking a list): issuing a draft is a
// one-time write, so each request must name another draft, which autocannon's fixed URL and wrk's plain
// mode cannot do. wrk stays in its own process (C), so the load generator does not share the bench's
// event loop, and the bare route is measured with the very same script (`/?n=<i>`), request for request.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atCleanup } from './lifecycle';
import type { WrkResult } from './wrk';

/**
 * Arguments after the URL: method, a file of paths (one a line; `-`: `/?n=<i>` generated) and the path
 * sent once the list is used up (a harmless GET: a repeated POST would be a second issue of a draft).
 * Prints the counts, the latency percentiles (µs), how many paths were taken and whether the list ran out.
 */
const SCRIPT = `threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  method = args[1]
  generated = args[2] == '-'
  fallback = args[3]
  paths = {}
  if not generated then for line in io.lines(args[2]) do paths[#paths + 1] = line end end
  used = 0
  exhausted = 0
end
function request()
  if generated then
    used = used + 1
    return wrk.format(method, '/?n=' .. used)
  end
  if used >= #paths then
    exhausted = 1
    return wrk.format('GET', fallback)
  end
  used = used + 1
  return wrk.format(method, paths[used])
end
done = function(summary, latency, requests)
  local e = summary.errors
  local u, x = 0, 0
  for _, t in ipairs(threads) do u = u + t:get('used'); x = x + t:get('exhausted') end
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"p50Us":%d,"p99Us":%d,"used":%d,"exhausted":%s}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write, e.timeout, latency:percentile(50), latency:percentile(99), u, x > 0 and 'true' or 'false'))
end
`;

export type PathsResult = WrkResult & {
  /** Paths of the list taken (requests sent to them, answered or not). */
  used: number;
  /** The list ran out before the end: the rest of the run hit the fallback, its figures are not the target's. */
  exhausted: boolean;
};

let scriptPath: string | undefined;
let fileNo = 0;

function tempFile(name: string, text: string): string {
  const p = join(tmpdir(), `divan-bench-${process.pid}-${name}`);
  writeFileSync(p, text);
  atCleanup(`remove ${p}`, () => rmSync(p, { force: true }));
  return p;
}

/**
 * One run: one wrk thread, `connections` kept open for `durationSec`, each request to the next path of
 * `paths` (or `/?n=<i>` when `paths` is null) on `base`.
 */
export function runWrkPaths(o: {
  base: string;
  method: 'GET' | 'POST';
  paths: string[] | null;
  fallback: string;
  headers: Record<string, string>;
  connections: number;
  durationSec: number;
}): Promise<PathsResult> {
  scriptPath ??= tempFile('paths.lua', SCRIPT);
  const list = o.paths ? tempFile(`paths-${++fileNo}.txt`, o.paths.join('\n') + '\n') : '-';
  const args = ['-t1', `-c${o.connections}`, `-d${o.durationSec}s`, '--timeout', '10s', '-s', scriptPath];
  for (const [k, v] of Object.entries(o.headers)) args.push('-H', `${k}: ${v}`);
  args.push(o.base, '--', o.method, list, o.fallback);
  return new Promise((res, rej) =>
    execFile('wrk', args, { timeout: (o.durationSec + 30) * 1000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (list !== '-') rmSync(list, { force: true });
      const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
      if (!line) return rej(new Error(`wrk gave no result${err ? `: ${err.message}` : ''}\n${stdout}${stderr}`));
      res(JSON.parse(line.slice('WRK_RESULT '.length)) as PathsResult);
    }),
  );
}
