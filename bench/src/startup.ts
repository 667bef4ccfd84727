import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnDivanCommand } from './servers';
import { median, root, rssMb, serverMain, sleep, waitForOk } from './util';

export type StartupResult = {
  /** What was timed, e.g. `npm start`. */
  command: string;
  samplesMs: number[];
  medianMs: number;
  /** Median of the server's own "ready in N ms" (from main() to listening), when it prints it. */
  serverReadyMs?: number;
  /** Runs in which `npm start` rebuilt a stale build first (left out and retried). */
  rebuilds: number;
  idleRssMb: number;
  idleSec: number;
  rssPid: number;
};

/**
 * Times from spawn of `npm start` until /api/v1/health answers, on an existing data dir, `runs` times.
 * The last run then idles `idleSec` and the RSS of the node process running the server is read.
 * A run in which `npm start` rebuilt a stale build first is left out and retried.
 * Falls back to `node apps/server/dist/main.js` when scripts/start.mjs does not exist.
 */
export async function measureStartup(dataDir: string, o: { runs: number; idleSec: number }): Promise<StartupResult> {
  const viaNpm = existsSync(resolve(root, 'scripts/start.mjs'));
  const [cmd, args, marker, label] = viaNpm
    ? ['npm', ['start'], 'scripts/start.mjs', 'npm start']
    : [process.execPath, [serverMain], 'dist/main.js', 'node apps/server/dist/main.js (scripts/start.mjs missing)'];
  const samples: number[] = [];
  const readyMs: number[] = [];
  let rebuilds = 0;
  let idleRss = NaN;
  let rssPid = 0;
  // A run that rebuilt a stale build first is left out and retried, at most `runs` extra times.
  for (let attempt = 0; samples.length < o.runs && attempt < o.runs * 2; attempt++) {
    const t0 = performance.now();
    const p = await spawnDivanCommand(`${label} #${attempt + 1}`, cmd, args, { dataDir }, marker);
    try {
      await waitForOk(`${p.url}/api/v1/health`, 180_000, 5, () => p.alive).catch((err: Error) => {
        throw new Error(`${err.message}\n--- output ---\n${p.output.trim().slice(-3000)}`);
      });
      const ms = performance.now() - t0;
      if (/Building the/.test(p.output)) {
        rebuilds++;
        continue;
      }
      samples.push(ms);
      const ready = /ready in (\d+) ms/.exec(p.output)?.[1];
      if (ready) readyMs.push(Number(ready));
      if (samples.length === o.runs) {
        await sleep(o.idleSec * 1000);
        rssPid = p.serverPid() ?? 0;
        if (!rssPid) throw new Error('could not find the node process running the server');
        idleRss = rssMb(rssPid);
      }
    } finally {
      await p.stop();
    }
  }
  if (samples.length < o.runs)
    throw new Error(`${label} rebuilt a stale build ${rebuilds} times: only ${samples.length} start-up(s) measured`);
  const serverReadyMs = readyMs.length ? median(readyMs) : undefined;
  return {
    command: label,
    samplesMs: samples,
    medianMs: median(samples),
    serverReadyMs,
    rebuilds,
    idleRssMb: idleRss,
    idleSec: o.idleSec,
    rssPid,
  };
}
