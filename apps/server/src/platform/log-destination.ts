import SonicBoom from 'sonic-boom';

/** Lines waiting for a slow log reader beyond this are dropped: a stuck pipe costs log lines, never the server. */
const MAX_BACKLOG = 4 * 1024 * 1024;

/**
 * Where the server's log lines go: stdout, written asynchronously. Pino's default destination writes
 * synchronously and, when the pipe is full (a reader that stopped reading), retries in a loop of
 * `Atomics.wait` on the main thread: requests stop, and SIGTERM's forced-exit timer never fires. Here a
 * full pipe is retried on a timer, the backlog is bounded, and write errors are dropped. It is built
 * directly (not by `pino.destination`), so no exit hook flushes it synchronously either: `flushLogs`
 * flushes it with a deadline on shutdown.
 */
export function logDestination(fd = 1): SonicBoom {
  const dest = new SonicBoom({ fd, sync: false, maxLength: MAX_BACKLOG });
  dest.on('error', () => {
    // A closed or broken log pipe: keep serving without logs.
  });
  return dest;
}

/** Writes out what is waiting, for at most `timeoutMs` (a reader that never reads gets nothing more). */
export function flushLogs(dest: SonicBoom, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    try {
      dest.flush(() => (clearTimeout(timer), resolve()));
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
