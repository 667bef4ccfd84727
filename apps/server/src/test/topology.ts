import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { entryArgs, freePort } from './server-process';
import { startS3rver } from './s3rver';

/**
 * Issue 31's scaled topology on one machine, for the topology test and `scripts/topology/topology.sh`:
 * a PostgreSQL primary (a cluster of its own made by initdb on a free loopback port, never the machine's
 * 5432) and a streaming replica of it (`pg_basebackup -R`), a Redis of its own (redis-server on another
 * port), s3rver, the built server as two web processes (PROCESS_ROLE=web) and one worker
 * (PROCESS_ROLE=worker), and Debian's haproxy in front of the two web processes, health-checking their
 * readiness. Everything lives under one temporary folder, listens on loopback only and is gone after `stop()`.
 */

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = resolve(serverDir, '../..');

/** What a machine needs for the topology; the first one missing, named (null: all there). */
export function topologyMissing(): string | null {
  if (!pgBin()) return 'PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup under /usr/lib/postgresql/*/bin)';
  if (!which('redis-server')) return 'redis-server';
  if (!which('haproxy')) return 'haproxy (apt-get install -y haproxy)';
  if (process.getuid?.() === 0 && spawnSync('id', ['postgres']).status !== 0) return 'a postgres user (initdb does not run as root)';
  return null;
}

function which(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin'])) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

let bin: string | null | undefined;
function pgBin(): string | null {
  if (bin !== undefined) return bin;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  bin = versions.length ? join(base, versions[0]!, 'bin') : null;
  return bin;
}

/** initdb and the server refuse root: as root, they run as the postgres user. */
function asPostgres(cmd: string, args: string[]): { cmd: string; args: string[] } {
  const full = join(pgBin()!, cmd);
  return process.getuid?.() === 0 ? { cmd: 'runuser', args: ['-u', 'postgres', '--', full, ...args] } : { cmd: full, args };
}

function run(cmd: string, args: string[], what: string) {
  const res = spawnSync(cmd, args, { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${what} failed (${res.status}): ${res.stderr || res.stdout}`);
  return res.stdout;
}

function runPg(cmd: string, args: string[], what: string) {
  const c = asPostgres(cmd, args);
  return run(c.cmd, c.args, what);
}

export type ServerRole = 'web' | 'worker';

export type TopologyProcess = {
  name: string;
  role: ServerRole;
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL, and wait for it to be gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
};

export type Topology = {
  dir: string;
  /** haproxy's frontend: what a browser would reach. */
  proxyUrl: string;
  webs: TopologyProcess[];
  worker: TopologyProcess;
  primaryUrl: string;
  replicaUrl: string;
  redisUrl: string;
  /** The readiness path haproxy checks. */
  readyPath: string;
  /** s3rver's folder: the bucket's objects. */
  s3Dir: string;
  /** The environment every server process shares. */
  env: Record<string, string>;
  /** A new process in place of a killed one (same port, for a web one: haproxy's server line). */
  restart(p: TopologyProcess): Promise<TopologyProcess>;
  /** Statements on the primary or the replica. */
  query<T = Record<string, unknown>>(on: 'primary' | 'replica', text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
};

export type TopologyOptions = {
  /** Extra environment for every server process. */
  env?: Record<string, string>;
  log?: (line: string) => void;
  /**
   * Build the server first when its build is stale (the script). Default (the test): run what is there — the
   * build `npm test` made, else the source through tsx (entryArgs) — never waiting on another run's build lock.
   */
  build?: boolean;
};

/** The server's build (dist/main.js) when it is fresh, else a build under the e2e lock, which other checkouts and helpers share. */
export function ensureServerBuilt(log: (line: string) => void = () => undefined) {
  if (entryArgs('main')[0] !== '--import') return;
  log('building the server (flock /tmp/divan-e2e.lock)…');
  run(
    'flock',
    ['/tmp/divan-e2e.lock', '-c', `cd ${JSON.stringify(repoRoot)} && npm run build -w apps/server`],
    'npm run build -w apps/server',
  );
}

const until = async (what: string, ms: number, check: () => Promise<boolean> | boolean) => {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms${last ? ` (${(last as Error).message})` : ''}`);
};

export async function startTopology(o: TopologyOptions = {}): Promise<Topology> {
  const log = o.log ?? (() => undefined);
  const missing = topologyMissing();
  if (missing) throw new Error(`the topology needs ${missing}`);
  if (o.build) ensureServerBuilt(log);
  const dir = mkdtempSync(join(tmpdir(), 'divan-topology-'));
  // The postgres user walks into it (initdb, the clusters, their sockets).
  chmodSync(dir, 0o755);
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  // If this process ends before stop() (a test runner's timeout, Ctrl-C twice), nothing is left running:
  // the clusters (pg_ctl detaches them) are stopped and every child killed, synchronously.
  const children: ChildProcess[] = [];
  const clusters: string[] = [];
  const onExit = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of clusters) {
      const c = asPostgres('pg_ctl', ['-D', d, '-m', 'immediate', 'stop']);
      spawnSync(c.cmd, c.args, { stdio: 'ignore' });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (err) {
        log(`cleanup: ${(err as Error).message}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // PostgreSQL: a primary of our own, and its streaming replica.
    const [pgPort, replicaPort, redisPort, proxyPort, webA, webB, workerPort] = (await Promise.all(
      Array.from({ length: 7 }, freePort),
    )) as [number, number, number, number, number, number, number];
    const pgDir = join(dir, 'pg');
    mkdirSync(pgDir);
    if (process.getuid?.() === 0) {
      const u = Number(run('id', ['-u', 'postgres'], 'id').trim());
      const g = Number(run('id', ['-g', 'postgres'], 'id').trim());
      chownSync(pgDir, u, g);
    }
    const primaryDir = join(pgDir, 'primary');
    const replicaDir = join(pgDir, 'replica');
    log(`PostgreSQL primary on 127.0.0.1:${pgPort}, replica on ${replicaPort}`);
    runPg('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], 'initdb');
    const settings = (port: number) =>
      [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${pgDir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        // A throwaway cluster: no waiting for the disk (commits still reach the WAL the replica streams).
        'fsync = off',
        'full_page_writes = off',
        'max_connections = 200',
        'shared_buffers = 32MB',
      ].join('\n') + '\n';
    appendFileSync(join(primaryDir, 'postgresql.conf'), settings(pgPort));
    const ctl = (d: string, action: 'start' | 'stop', logFile?: string) =>
      runPg(
        'pg_ctl',
        ['-D', d, '-w', '-t', '60', ...(logFile ? ['-l', logFile] : []), ...(action === 'stop' ? ['-m', 'immediate'] : []), action],
        `pg_ctl ${action}`,
      );
    clusters.push(primaryDir);
    ctl(primaryDir, 'start', join(pgDir, 'primary.log'));
    cleanups.push(() => ctl(primaryDir, 'stop'));
    const admin = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query('CREATE DATABASE divan');
    await c.end();
    runPg(
      'pg_basebackup',
      ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast'],
      'pg_basebackup',
    );
    appendFileSync(join(replicaDir, 'postgresql.conf'), settings(replicaPort));
    clusters.push(replicaDir);
    ctl(replicaDir, 'start', join(pgDir, 'replica.log'));
    cleanups.push(() => ctl(replicaDir, 'stop'));
    const primaryUrl = `postgres://postgres@127.0.0.1:${pgPort}/divan`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/divan`;
    const pools = {
      primary: new pg.Pool({ connectionString: primaryUrl, max: 3 }),
      replica: new pg.Pool({ connectionString: replicaUrl, max: 3 }),
    };
    cleanups.push(() => Promise.all([pools.primary.end(), pools.replica.end()]));
    await until('the replica streams', 30_000, async () => {
      const { rows } = await pools.primary.query("SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = 'streaming'");
      return rows[0].n === 1;
    });

    // Redis of our own.
    log(`Redis on 127.0.0.1:${redisPort}`);
    const redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    children.push(redis);
    cleanups.push(() => stopChild(redis));
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    await until('redis answers', 10_000, () =>
      spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout.includes('PONG'),
    );

    // S3.
    const s3 = await startS3rver('divan-topology');
    cleanups.push(() => s3.close());
    log(`s3rver on ${s3.env.S3_ENDPOINT}`);

    const env: Record<string, string> = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      DATABASE_URL: primaryUrl,
      DATABASE_REPLICA_URL: replicaUrl,
      REDIS_URL: redisUrl,
      ...s3.env,
      // Every process signs and reads the same tokens and opens the same keys.
      APP_SECRET: randomBytes(32).toString('hex'),
      CLINICAL_KEY: randomBytes(32).toString('base64'),
      // The client's address comes from haproxy's X-Forwarded-For: the per-IP limits see the visitor, not the proxy.
      TRUST_PROXY: 'true',
      ...o.env,
    };

    const procs: TopologyProcess[] = [];
    cleanups.push(() => Promise.all(procs.map((p) => p.kill())));
    const startProcess = async (name: string, role: ServerRole, port: number): Promise<TopologyProcess> => {
      const dataDir = join(dir, `data-${name}`);
      mkdirSync(dataDir, { recursive: true });
      const url = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, entryArgs('main'), {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? dir,
          ...env,
          PORT: String(port),
          DATA_DIR: dataDir,
          PROCESS_ROLE: role,
          // A killed worker's running jobs come back after 3 s of silence here (45 s by default).
          JOBS_WORKER_LOST_SECONDS: '3',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
      let gone = false;
      void exited.then(() => (gone = true));
      const p: TopologyProcess = {
        name,
        role,
        url,
        port,
        dataDir,
        child,
        output: () => out,
        exited,
        async kill() {
          if (!gone) child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          if (!gone) child.kill('SIGTERM');
          await exited;
        },
      };
      procs.push(p);
      await Promise.race([
        until(`${name} starts`, 90_000, () => out.includes('Diván listening')),
        exited.then((code) => {
          throw new Error(`${name} exited with ${code}:\n${out}`);
        }),
      ]).catch((err: Error) => {
        throw new Error(`${err.message}\n${out}`);
      });
      return p;
    };

    // The first process migrates the database; the others start once it has.
    log('web a (migrates), then web b and the worker');
    const a = await startProcess('web-a', 'web', webA);
    const [b, worker] = await Promise.all([startProcess('web-b', 'web', webB), startProcess('worker', 'worker', workerPort)]);
    const ready = await fetch(`${a.url}/health/ready`).catch(() => undefined);
    const readyPath = ready && (ready.status === 200 || ready.status === 503) ? '/health/ready' : '/api/v1/health';

    // haproxy in front of the two web processes.
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'global',
        '  maxconn 2000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  timeout tunnel 1h',
        '  option forwardfor',
        '  option redispatch',
        '  retries 2',
        // A request that could not connect (a killed process) is tried on the other server, not answered 503. Only
        // then: one sent to a process that died while answering may have been done (a message stored), so it is not replayed.
        '  retry-on conn-failure',
        'frontend divan',
        `  bind 127.0.0.1:${proxyPort}`,
        '  default_backend web',
        'backend web',
        '  balance roundrobin',
        '  option httpchk',
        `  http-check send meth GET uri ${readyPath}`,
        '  http-check expect status 200',
        '  default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions',
        `  server a 127.0.0.1:${webA} check`,
        `  server b 127.0.0.1:${webB} check`,
        '',
      ].join('\n'),
    );
    const proxy = spawn(which('haproxy')!, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(proxy);
    let proxyOut = '';
    proxy.stdout!.on('data', (d) => (proxyOut += d));
    proxy.stderr!.on('data', (d) => (proxyOut += d));
    cleanups.push(() => stopChild(proxy));
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    await until('haproxy answers', 15_000, async () => (await fetch(`${proxyUrl}/api/v1/health`)).status === 200).catch((err: Error) => {
      throw new Error(`${err.message}\n${proxyOut}`);
    });
    log(`haproxy on ${proxyUrl} (checks ${readyPath})`);

    const webs = [a, b];
    const topology: Topology = {
      dir,
      proxyUrl,
      webs,
      worker,
      primaryUrl,
      replicaUrl,
      redisUrl,
      readyPath,
      s3Dir: s3.directory,
      env,
      async restart(p) {
        await p.kill();
        const next = await startProcess(p.name, p.role, p.port);
        if (p.role === 'worker') topology.worker = next;
        else webs[webs.indexOf(p)] = next;
        return next;
      },
      async query(on, text, values) {
        return (await pools[on].query(text, values)).rows;
      },
      stop,
    };
    return topology;
  } catch (err) {
    await stop();
    throw err;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => (clearTimeout(timer), res()));
    child.kill('SIGTERM');
  });
}
