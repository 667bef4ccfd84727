import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });

const newestUnder = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, e) => {
    const p = join(dir, e.name);
    return Math.max(newest, e.isDirectory() ? newestUnder(p) : statSync(p).mtimeMs);
  }, 0);

let sourcesNewest: number | undefined;
/**
 * How a child runs a server entry ('main' or 'ops'): the build npm test made (`dist/<entry>.js`, what
 * `npm start` runs) when it is newer than every source file it is built from, else the source through tsx
 * (a compile of the whole server at each start, several seconds on a busy 2-core machine).
 */
export function entryArgs(entry: 'main' | 'ops'): string[] {
  const built = join(serverDir, 'dist', `${entry}.js`);
  try {
    sourcesNewest ??= Math.max(
      newestUnder(join(serverDir, 'src')),
      newestUnder(join(serverDir, '../../packages/core/src')),
      newestUnder(join(serverDir, 'drizzle')),
      statSync(join(serverDir, 'build.mjs')).mtimeMs,
    );
    if (statSync(built).mtimeMs > sourcesNewest) return [built];
  } catch {
    // no build (or a folder missing): run the source
  }
  return ['--import', 'tsx', `src/${entry}.ts`];
}

/** The parent's environment without shared services: a child uses Redis or PostgreSQL only when a test says so. */
function isolatedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  return env;
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
  kill(): Promise<void>;
};

/** The real server in its own process, as `npm start` runs it (its fresh build, else src/main.ts through tsx: see entryArgs). Starting can take over 30 s when the CI machine runs the whole suite on 2 cores. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, entryArgs('main'), {
    cwd: serverDir,
    env: {
      ...isolatedEnv(),
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      if (out.includes('Diván listening')) return (clearTimeout(timer), res());
      setTimeout(check, 50);
    };
    check();
    void exited.then((code) => (clearTimeout(timer), rej(new Error(`server exited with ${code}:\n${out}`))));
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs a server entry (main by default, or ops with arguments) to its end; resolves with exit code and output. */
export function runToExit(env: Record<string, string>, timeoutMs = 30_000, [entry, ...args]: ['main' | 'ops', ...string[]] = ['main']) {
  return new Promise<{ code: number | null; output: string }>((res) => {
    const child = spawn(process.execPath, [...entryArgs(entry), ...args], {
      cwd: serverDir,
      env: { ...isolatedEnv(), NODE_ENV: 'test', HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => (clearTimeout(timer), res({ code, output: out })));
  });
}

/**
 * The server's tests run on PostgreSQL (TEST_DATABASE_URL set: CI's project server-postgres). Files about
 * PGlite's own data dir skip it; CI runs them in its PGlite project (test/database-suites.ts).
 */
export const onPostgresPass = !!process.env.TEST_DATABASE_URL;
