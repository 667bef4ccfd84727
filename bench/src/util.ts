import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root (bench/src/ → ../..). */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const serverMain = resolve(root, 'apps/server/dist/main.js');
export const webDist = resolve(root, 'apps/web/dist');

export const sleep = (ms: number) => new Promise<void>((res) => setTimeout(res, ms));

/** A number written in letters (0 → 'a', 26 → 'ba'): persons' names are letters only (spec §5), so a bench's names count this way. */
export const inLetters = (n: number) => [...n.toString(26)].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('');

export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return Math.floor(n);
}

export const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });

/** Rejects after `ms` with a message naming what timed out. */
export async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`${what}: timed out after ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `url` until it answers 200, at most `timeoutMs`; resolves with the time it took. */
export async function waitForOk(url: string, timeoutMs: number, intervalMs = 10, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`process exited before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/** Children of every process, from /proc (Linux). */
function childrenMap(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(ppid, [...(map.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we listed
    }
  }
  return map;
}

/** The process itself and all its descendants. */
export function processTree(pid: number): number[] {
  const children = childrenMap();
  const out: number[] = [];
  const queue = [pid];
  while (queue.length && out.length < 1000) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

export const cmdlineOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
};

/** The node process in `pid`'s tree whose command line mentions `marker` (npm → sh → node). */
export function findNodeProcess(pid: number, marker: string): number | undefined {
  return processTree(pid).find((p) => {
    const cmd = cmdlineOf(p);
    return /(^|\/)node$/.test(cmd[0] ?? '') && cmd.some((a) => a.includes(marker));
  });
}

/** VmRSS in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for pid ${pid}`);
  return kb / 1024;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
