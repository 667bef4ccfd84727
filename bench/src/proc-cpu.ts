import { readFileSync, readdirSync } from 'node:fs';

/** utime + stime of a process in ms (/proc, Linux; 100 ticks per second), or NaN. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * CPU used by the server process and by the PostgreSQL backends of the bench's database (their command
 * line names it) while `work` runs: where an issue's time goes when the machine is shared.
 */
export async function cpuDuring<T>(
  databaseUrl: string,
  serverPid: number | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; serverMs: number; postgresMs: number }> {
  const db = new URL(databaseUrl).pathname.slice(1);
  const backends = () =>
    readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .map(Number)
      .filter((pid) => {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return cmd.startsWith('postgres: ') && cmd.includes(` ${db} `);
        } catch {
          return false;
        }
      });
  const before = new Map(backends().map((pid) => [pid, cpuMs(pid)]));
  const server0 = serverPid ? cpuMs(serverPid) : NaN;
  const result = await work();
  const server1 = serverPid ? cpuMs(serverPid) : NaN;
  // Backends that ended meanwhile are not counted; the server's pool keeps its connections open.
  const postgresMs = backends().reduce((sum, pid) => sum + cpuMs(pid) - (before.get(pid) ?? 0), 0);
  return { result, serverMs: server1 - server0, postgresMs };
}
