import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findNodeProcess, freePort, root, serverMain, sleep, waitForOk } from './util';

/** Variables the bench sets itself: a value inherited from the shell must not leak into a measurement. */
const OWNED_ENV = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'APP_SECRET',
  'WEB_DIST',
  'DATA_DIR',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'NODE_ENV',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'JOBS',
];

export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of OWNED_ENV) delete env[k];
  // The bench itself runs under `npm start -w bench`: a nested `npm start` must not see that script's context.
  for (const k of Object.keys(env)) if (/^npm_(package_|lifecycle_|command$)/.test(k)) delete env[k];
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** A child process the bench started; `stop()` sends SIGTERM and, after a grace period, SIGKILL to its group. */
export class Managed {
  readonly exited: Promise<number | null>;
  private out = '';
  private done = false;
  /** Where bench/src/loop-probe.mjs answers, when the server was started with it. */
  loopProbeUrl?: string;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly url: string,
    /** Marker in the command line of the node process that runs the server (npm → sh → node). */
    private readonly marker?: string,
  ) {
    const keep = (d: Buffer) => (this.out = (this.out + d.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((res) => child.once('exit', (code) => ((this.done = true), res(code))));
    live.add(this);
  }

  get alive() {
    return !this.done;
  }
  get output() {
    return this.out;
  }
  /** The pid of the node process serving (for RSS): the child itself, or its node descendant for `npm start`. */
  serverPid(): number | undefined {
    if (!this.child.pid) return undefined;
    return this.marker ? findNodeProcess(this.child.pid, this.marker) : this.child.pid;
  }

  async stop(graceMs = 15_000): Promise<number | null> {
    live.delete(this);
    if (this.done) return this.exited;
    // SIGTERM to the server itself (not npm's wrapper), so it closes the database cleanly.
    const target = this.serverPid() ?? this.child.pid;
    try {
      if (target) process.kill(target, 'SIGTERM');
    } catch {
      // already gone
    }
    const deadline = Date.now() + graceMs;
    const code = await Promise.race([this.exited, sleep(graceMs).then(() => 'timeout' as const)]);
    // npm does not always pass SIGTERM on: wait for the rest of the group too, then SIGKILL what remains.
    if (code !== 'timeout' && !this.groupAlive()) return code;
    if (code !== 'timeout') this.signalGroup('SIGTERM');
    while (this.groupAlive() && Date.now() < deadline) await sleep(100);
    if (this.groupAlive() || !this.done) {
      console.warn(`  ! ${this.name} did not exit within ${graceMs} ms of SIGTERM: SIGKILL`);
      this.signalGroup('SIGKILL');
    }
    return this.exited;
  }

  /** The child leads its own process group (spawned detached): its pid is the group id. */
  private groupAlive(): boolean {
    try {
      if (this.child.pid) process.kill(-this.child.pid, 0);
      return !!this.child.pid;
    } catch {
      return false;
    }
  }

  private signalGroup(signal: NodeJS.Signals) {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }
}

const live = new Set<Managed>();

export type LoopHold = { maxMs: number; p99Ms: number; samples: number; gcMaxMs: number; gcTotalMs: number };

/** Starts a window of the server's loop probe (its delays and GC pauses counted from now). */
export async function resetLoopProbe(p: Managed): Promise<void> {
  if (!p.loopProbeUrl) throw new Error(`${p.name} runs without the loop probe`);
  await (await fetch(`${p.loopProbeUrl}/reset`)).arrayBuffer();
}

/** The server's longest event-loop delay and GC pause since `resetLoopProbe`. */
export async function readLoopProbe(p: Managed): Promise<LoopHold> {
  if (!p.loopProbeUrl) throw new Error(`${p.name} runs without the loop probe`);
  return (await (await fetch(p.loopProbeUrl)).json()) as LoopHold;
}

/** Stops every process still running (called from `finally` and on signals). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop(10_000)));
}

function launch(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, url: string, cwd = root, marker?: string) {
  // Own process group: whatever the child spawns can be killed with it as a last resort.
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Managed(name, child, url, marker);
}

async function ready(p: Managed, healthPath: string, timeoutMs: number): Promise<Managed> {
  try {
    await waitForOk(p.url + healthPath, timeoutMs, 20, () => p.alive);
    return p;
  } catch (err) {
    await p.stop(5_000);
    throw new Error(`${p.name} did not start: ${(err as Error).message}\n--- its output ---\n${p.output.trim().slice(-3000)}`);
  }
}

export type DivanOptions = {
  dataDir: string;
  databaseUrl?: string;
  port?: number;
  env?: Record<string, string>;
  /** Preload bench/src/loop-probe.mjs: the server's event-loop delay and GC pauses, read with `loopProbe`. */
  loopProbe?: boolean;
};

export function divanEnv(port: number, o: DivanOptions): NodeJS.ProcessEnv {
  return cleanEnv({
    NODE_ENV: 'development', // the dev outbox (sign-up links) exists outside production only
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: o.dataDir,
    DATABASE_URL: o.databaseUrl,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_IP: '1000000',
    AUTH_RATE_LIMIT_EMAIL: '1000000',
    ...o.env,
  });
}

/**
 * The node flags `npm start` runs the server with for this environment (scripts/node-flags.mjs, which
 * scripts/start.sh asks too), so that the throughput runs measure the server as users start it.
 */
export function startFlags(env: NodeJS.ProcessEnv): string[] {
  return execFileSync(process.execPath, [resolve(root, 'scripts/node-flags.mjs')], { env, encoding: 'utf8' })
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/** Extra node flags for the servers the bench starts (`BENCH_SERVER_FLAGS`, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const serverFlags = () => (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** `node <start flags> apps/server/dist/main.js`, ready once /api/v1/health answers. */
export async function startDivan(o: DivanOptions, timeoutMs = 60_000): Promise<Managed> {
  const port = o.port ?? (await freePort());
  const env = divanEnv(port, o);
  const probePort = o.loopProbe ? await freePort() : undefined;
  const probe = probePort ? ['--import', pathToFileURL(resolve(root, 'bench/src/loop-probe.mjs')).href] : [];
  if (probePort) env.BENCH_LOOP_PORT = String(probePort);
  const p = launch(
    `server (${o.databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
    process.execPath,
    [...startFlags(env), ...serverFlags(), ...probe, serverMain],
    env,
    `http://127.0.0.1:${port}`,
  );
  if (probePort) p.loopProbeUrl = `http://127.0.0.1:${probePort}`;
  return ready(p, '/api/v1/health', timeoutMs);
}

/** Spawns a command that runs the server (e.g. `npm start`) without waiting; the caller times readiness. */
export async function spawnDivanCommand(name: string, cmd: string, args: string[], o: DivanOptions, marker: string): Promise<Managed> {
  const port = o.port ?? (await freePort());
  return launch(name, cmd, args, divanEnv(port, o), `http://127.0.0.1:${port}`, root, marker);
}

/** The baseline: a bare Fastify app (the server's own fastify) with one JSON route, in its own process. */
export async function startBare(timeoutMs = 30_000): Promise<Managed> {
  const port = await freePort();
  const script = resolve(root, 'bench/src/bare-server.ts');
  const p = launch(
    'bare fastify',
    process.execPath,
    ['--import', 'tsx', script],
    cleanEnv({ PORT: String(port) }),
    `http://127.0.0.1:${port}`,
    resolve(root, 'bench'),
  );
  return ready(p, '/', timeoutMs);
}
