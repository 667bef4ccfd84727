import type { FastifyInstance } from 'fastify';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appServices } from './app-services';
import type { Config } from './platform/config';
import { openDatabase } from './platform/db/database';
import { bridgeToSockets } from './platform/events/socket-bridge';
import { useSpanishZodMessages } from './platform/http/zod-spanish';
import { companionPage, createServer, registerHttp, registerPlatformRoutes, webDistOf } from './platform/modules/http';
import { mountModules } from './platform/modules/mount-modules';
import { Metrics, serveMetrics } from './platform/metrics/metrics';
import { buildPlatform, type PlatformOptions } from './platform/modules/platform';
import { analyticsModule } from './modules/analytics/analytics.module';
import { auditModule } from './modules/audit/audit.module';
import { authModule } from './modules/auth/auth.module';
import { billingModule } from './modules/billing/billing.module';
import { bookingModule } from './modules/booking/booking.module';
import { chatModule } from './modules/chat/chat.module';
import { companionBillingModule } from './modules/companion-billing/companion-billing.module';
import { companionModule } from './modules/companion/companion.module';
import { consentsModule } from './modules/consents/consents.module';
import { documentsModule } from './modules/documents/documents.module';
import { feedbackModule } from './modules/feedback/feedback.module';
import { googleCalendarModule } from './modules/google-calendar/google-calendar.module';
import { healthModule } from './modules/health/health.module';
import { invoicesModule } from './modules/invoices/invoices.module';
import { learningModule } from './modules/learning/learning.module';
import { measuresModule } from './modules/measures/measures.module';
import { meetModule } from './modules/meet/meet.module';
import type { MeetHubOptions } from './modules/meet/meet-hub';
import { patientAccountsModule } from './modules/patient-accounts/patient-accounts.module';
import { patientExportModule } from './modules/patient-export/patient-export.module';
import { patientImportModule } from './modules/patient-import/patient-import.module';
import { patientsModule } from './modules/patients/patients.module';
import { paymentsModule } from './modules/payments/payments.module';
import { sessionsModule } from './modules/sessions/sessions.module';
import { tasksModule } from './modules/tasks/tasks.module';
import { usersModule } from './modules/users/users.module';
import { workspacesModule } from './modules/workspaces/workspaces.module';

export type BuildOptions = PlatformOptions & {
  meet?: MeetHubOptions;
  logger?: boolean;
  /** Where log lines go (main: an asynchronous stdout that a stuck pipe cannot block); default Fastify's. */
  logStream?: { write(line: string): unknown };
  /** Tests: the in-memory database starts from this migrated dump (`migratedPgliteDump`). */
  databaseTemplate?: Blob;
  /** Tests: told of every statement the app sends through Drizzle (statements-per-request tests). */
  onStatement?: (sql: string) => void;
};

const here = dirname(fileURLToPath(import.meta.url));
/** Migrations sit beside src/ and dist/ alike. */
export const migrationsFolder = resolve(here, '../drizzle');
const defaultWebDist = resolve(here, '../../web/dist');

/**
 * The modules in dependency order: each is built with what the ones before it provide (its `needs`);
 * a cycle is a port read later (`later`: patients ← documents, sessions ← meet). docs/architecture.md.
 */
const modulesOf = (opts: BuildOptions) => [
  healthModule,
  usersModule,
  auditModule,
  workspacesModule,
  authModule,
  patientsModule,
  documentsModule,
  measuresModule,
  patientImportModule,
  patientExportModule,
  tasksModule,
  feedbackModule,
  sessionsModule,
  meetModule(opts.meet),
  googleCalendarModule,
  invoicesModule,
  paymentsModule,
  billingModule,
  learningModule,
  bookingModule,
  analyticsModule,
  patientAccountsModule,
  chatModule,
  consentsModule,
  companionModule,
  companionBillingModule,
];

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  useSpanishZodMessages();
  const database = await openDatabase({
    url: config.databaseUrl,
    replicaUrl: config.databaseReplicaUrl,
    dataDir: config.inMemoryDatabase ? undefined : config.dataDir,
    migrationsFolder,
    loadDataDir: config.inMemoryDatabase ? opts.databaseTemplate : undefined,
    onStatement: opts.onStatement,
  });
  const app = createServer(config, opts);
  try {
    const platform = await buildPlatform(config, database, app.log, { ...opts, migrationsFolder });
    const modules = await mountModules(platform, modulesOf(opts));
    const { workspaces, bookingPage } = modules.provided;
    // Core's SOCKET_EVENTS, each published by one module, reach the members of the event's workspace.
    bridgeToSockets(platform.events, platform.realtime, workspaces!.memberUserIds, modules.sockets, app.log);
    app.decorate('services', appServices(platform, modules.provided));
    const web = { webDist: webDistOf(platform, defaultWebDist), pages: [bookingPage!, companionPage] };
    // PROCESS_ROLE=worker: jobs and crons; over HTTP only the health routes (and /metrics), no API, socket or web app.
    const serves = config.processRole !== 'worker';
    // METRICS_PORT or METRICS_TOKEN: Prometheus metrics (neither: nothing is counted, /metrics is 404).
    const metrics = config.metrics
      ? new Metrics({
          database,
          jobs: platform.jobs,
          role: config.processRole ?? 'all',
          sockets: () => (serves ? app.websocketServer.clients.size : 0),
        })
      : undefined;
    await registerHttp(app, platform, { ...web, resolveMembership: workspaces!.resolveMembership, api: serves, metrics });
    await modules.routes(app, serves ? undefined : [healthModule.name]);
    if (metrics) await serveMetrics(app, metrics, { ...config.metrics, host: config.host });
    if (serves) await registerPlatformRoutes(app, platform, web);
    await platform.jobs.start();
    await platform.realtime.start();
    await modules.start();
    await platform.events.start();
    app.addHook('onClose', async () => {
      // After the listener closed and in-flight requests ended: a running job (an import, a mail being
      // relayed) finishes, or is handed back, before the database closes (main.ts starts this stop earlier).
      await platform.jobs.stop();
      await platform.events.stop();
      await modules.stop();
      await platform.realtime.stop();
      await platform.emailLimiter.close();
      platform.mailer.close();
      await database.close();
      platform.storage.close?.();
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  return app;
}
