import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './platform/config';
import { DataDirInUseError } from './platform/db/data-dir-lock';
import { DataDirMismatchError } from './platform/storage/installation';
import { collectStartupGarbage } from './platform/memory';
import { flushLogs, logDestination } from './platform/log-destination';
import { listeningUrl, rememberPublicUrl } from './platform/server-address';

/** Starts Diván: one port for the API, the websocket and the web app (PROCESS_ROLE=worker: health only). SIGTERM drains it. */
async function main() {
  const startedAt = performance.now();
  const config = loadConfig();
  const logs = logDestination();
  const app = await buildApp(config, { logStream: logs });
  // The last net, not the fix: each boundary (socket frames, client-event, broker, domain-event and job
  // handlers) catches and logs its own (issue 24). A promise rejection nobody handled is logged and the
  // process carries on; an uncaught exception leaves it in a state nobody knows: logged, then exit 1.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));
  process.on('uncaughtException', (err) => {
    app.log.fatal({ err }, 'uncaught exception: exiting');
    void flushLogs(logs).finally(() => process.exit(1));
  });
  // SIGTERM (README, "Several processes"): readiness answers 503 at once; after SHUTDOWN_DRAIN_MS the listener
  // closes (in-flight requests finish, sockets are told "going away"), jobs stop taking work and finish
  // or are handed back; past SHUTDOWN_GRACE_MS the process exits anyway.
  const { graceMs, drainMs } = config.shutdown ?? { graceMs: 10_000, drainMs: 0 };
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const deadline = Date.now() + graceMs;
    app.log.info(`${signal} received: draining`);
    const force = setTimeout(() => {
      app.log.error({ graceMs }, 'shutdown: grace exceeded, exiting');
      void flushLogs(logs).finally(() => process.exit(1));
    }, graceMs);
    try {
      app.services.lifecycle.drain();
      if (drainMs) await sleep(drainMs);
      // Started now, beside the HTTP close: the jobs have what is left of the grace, less a margin for closing the rest.
      void app.services.jobs.stop({ timeoutMs: Math.max(0, deadline - Date.now() - Math.min(1000, graceMs / 5)) });
      // Node closes the connections idle when the listener closes, not those that turn idle later (a
      // keep-alive connection whose request was in flight): each is closed as soon as it is idle.
      setInterval(() => app.server.closeIdleConnections(), 100).unref();
      await app.close();
      await flushLogs(logs);
      clearTimeout(force);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // For the operator commands (npm run demo), which run without the server's PORT.
  rememberPublicUrl(config.dataDir, listeningUrl(config.publicUrl, !!process.env.PUBLIC_URL, app.server.address()));
  const db = app.services.database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';
  console.log(`Diván listening on ${config.publicUrl} (${db}, ready in ${Math.round(performance.now() - startedAt)} ms)`);
  setTimeout(collectStartupGarbage, 1000).unref();
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof DataDirMismatchError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
