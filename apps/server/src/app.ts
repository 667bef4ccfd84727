import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCESS_TOKEN_TTL_S, IMAGE_MAX_BYTES } from '@divan/core';
import { accessPlugin, type Membership } from './platform/auth/access';
import { WorkspaceCache } from './platform/cache/workspace-cache';
import { RevokedSessions } from './platform/auth/revoked-sessions';
import { createTokenService } from './platform/auth/tokens';
import { devMailEnabled, type Config } from './platform/config';
import { openDatabase, type Database } from './platform/db/database';
import { registerClientVersionCheck } from './platform/http/client-version';
import { refuseStrayUpgrades } from './platform/http/socket-paths';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './platform/http/error-handler';
import { useSpanishZodMessages } from './platform/http/zod-spanish';
import { requestValidator } from './platform/http/absent-nulls';
import { registerSecurityHeaders } from './platform/http/security-headers';
import { registerOpenApi } from './platform/http/openapi';
import { createRateLimiter } from './platform/http/rate-limiter';
import { registerMemberRateLimits } from './platform/http/member-rate-limit';
import { inlineScriptHashes, registerWebApp, type WebPage } from './platform/http/web-app';
import { devMailRoutes } from './platform/mail/dev-mail.routes';
import { devJobsRoutes } from './platform/jobs/dev-jobs.routes';
import { Jobs } from './platform/jobs/jobs';
import { Mailer, OUTBOX_KEY } from './platform/mail/mailer';
import { inProcessBroker, redisBroker } from './platform/realtime/broker';
import { Realtime, type RealtimeOptions } from './platform/realtime/realtime';
import { EventBus } from './platform/events/event-bus';
import { bridgeToSockets } from './platform/events/socket-bridge';
import { PrivateFileStore } from './platform/storage/private-file-store';
import { PublicImageStore } from './platform/storage/public-image-store';
import { filesRoutes } from './platform/storage/files.routes';
import { StorageCleanup } from './platform/storage/storage-cleanup';
import { localDiskStorage } from './platform/storage/storage';
import { checkInstallation } from './platform/storage/installation';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { healthRoutes } from './modules/health/health.routes';
import { usersRoutes } from './modules/users/users.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { AuditService } from './modules/audit/audit.service';
import { membersRoutes } from './modules/workspaces/members.routes';
import { MembersService } from './modules/workspaces/members.service';
import { rolesRoutes } from './modules/workspaces/roles.routes';
import { RolesService } from './modules/workspaces/roles.service';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes';
import { WorkspacesService } from './modules/workspaces/workspaces.service';
import { openCipher } from './platform/crypto/open-cipher';
import { historyRoutes } from './modules/patients/history.routes';
import { HistoryService } from './modules/patients/history.service';
import { patientsRoutes } from './modules/patients/patients.routes';
import { PatientsService } from './modules/patients/patients.service';
import { PATIENT_EVENTS, patientListCache as createPatientListCache } from './modules/patients/patient-list-cache';
import { documentsRoutes } from './modules/documents/documents.routes';
import { DocumentsService } from './modules/documents/documents.service';
import { patientImportRoutes } from './modules/patient-import/patient-import.routes';
import { PatientImportService } from './modules/patient-import/patient-import.service';
import { patientExportRoutes } from './modules/patient-export/patient-export.routes';
import { PatientExportService } from './modules/patient-export/patient-export.service';
import { UsersService } from './modules/users/users.service';
import { wireInvoices } from './modules/invoices/invoices.wiring';
import { wirePayments } from './modules/payments/payments.wiring';
import { createPaymentsGateway } from './platform/payments/create-gateway';
import { sandboxPagesRoutes } from './platform/payments/sandbox/sandbox-pages.routes';
import { tasksRoutes } from './modules/tasks/tasks.routes';
import { TasksService } from './modules/tasks/tasks.service';
import { SESSION_EVENTS } from './modules/sessions/sessions.service';
import { wireSessions } from './modules/sessions/sessions.wiring';
import { sessionByLink } from './modules/sessions/session-by-link';
import { MeetHub, type MeetHubOptions } from './modules/meet/meet-hub';
import { meetRoutes } from './modules/meet/meet.routes';
import { MeetService } from './modules/meet/meet.service';
import { SERIES_EVENTS } from './modules/sessions/session-series.service';
import { wireConsents } from './modules/consents/consents.wiring';
import { wireBooking } from './modules/booking/booking.wiring';
import { wireChat } from './modules/chat/chat.wiring';
import { wirePatientAccounts } from './modules/patient-accounts/patient-accounts.wiring';
import { wireCompanion } from './modules/companion/companion.wiring';
import { wireCompanionBilling } from './modules/companion-billing/companion-billing.wiring';

/** The broker topic of "a workspace's patients changed" (the list pages cached by PatientsService). */
const PATIENTS_CHANGED = 'patients-changed';
/** … and of "a workspace's members or roles changed" (memberships cached by WorkspacesService). */
const ACCESS_CHANGED = 'workspace-access-changed';

export type { AppServices } from './app-services';

export type BuildOptions = {
  realtime?: RealtimeOptions;
  meet?: MeetHubOptions;
  logger?: boolean;
  /** Where log lines go (main: an asynchronous stdout that a stuck pipe cannot block); default Fastify's. */
  logStream?: { write(line: string): unknown };
  /** The clock time-driven jobs read (session reminders); tests move it. Default: the real one. */
  clock?: () => Date;
  /** Tests: the in-memory database starts from this migrated dump (`migratedPgliteDump`). */
  databaseTemplate?: Blob;
};

const here = dirname(fileURLToPath(import.meta.url));
/** Migrations sit beside src/ and dist/ alike. */
export const migrationsFolder = resolve(here, '../drizzle');
const defaultWebDist = resolve(here, '../../web/dist');

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  useSpanishZodMessages();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.inMemoryDatabase ? undefined : config.dataDir,
    migrationsFolder,
    loadDataDir: config.inMemoryDatabase ? opts.databaseTemplate : undefined,
  });
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    trustProxy: config.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // A path Fastify refuses before routing (a parameter past its length, a bad escape) is a Spanish 4xx too.
    frameworkErrors,
    // …and what the HTTP parser refuses (a body cut before its Content-Length, headers too big).
    clientErrorHandler,
    // Each request is logged at debug level only (the route hook below sets warn for the handlers' own logs).
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  try {
    await wire(app, config, database, opts);
  } catch (err) {
    await database.close();
    throw err;
  }
  return app;
}

async function wire(app: FastifyInstance, config: Config, database: Database, opts: BuildOptions) {
  const { db } = database;
  // Ended sessions' access tokens are refused until they would have expired anyway (+1 min for clocks).
  const revoked = new RevokedSessions(ACCESS_TOKEN_TTL_S * 1000 + 60_000);
  const tokens = createTokenService(config.appSecret, revoked);
  const broker = config.redisUrl ? await redisBroker(config.redisUrl, app.log) : inProcessBroker(app.log);
  await revoked.listen(broker);
  const realtime = new Realtime(broker, tokens, app.log, opts.realtime);
  const events = new EventBus(broker, app.log);
  // Master key, then every workspace's data key (the mail outbox's created now: mail is written inside transactions).
  const cipher = await openCipher(db, config, [OUTBOX_KEY]);
  const jobs = new Jobs(database, {
    log: app.log,
    runWorkers: config.runJobs !== false,
    maintenanceIntervalSeconds: config.jobsMaintenanceSeconds,
  });
  const devMail = config.devMail ?? devMailEnabled(config.env, config.smtpUrl, undefined);
  const mailer = new Mailer(db, jobs, cipher, tokens.hashSecret, app.log, {
    smtpUrl: config.smtpUrl,
    // Readable at /dev/mail for a day; with no outbox to read, a sent mail keeps no code or link at once.
    keepReadableMs: devMail ? 24 * 3_600_000 : 0,
    from: config.mailFrom,
    retryDelaySeconds: config.mailRetryDelaySeconds,
  });
  const filesRoot = join(config.dataDir, 'files');
  // A process whose DATA_DIR is not the one the others store files in stops here (installation.ts).
  await checkInstallation(db, { filesRoot, dataDir: config.dataDir, shared: database.kind === 'postgres' });
  const storage = localDiskStorage(filesRoot);
  const publicImages = new PublicImageStore(db, storage);
  const users = new UsersService(db, publicImages, realtime, events);
  const emailLimiter = await createRateLimiter({
    max: config.rateLimit.perEmailPer15Min,
    windowMs: 15 * 60_000,
    prefix: 'divan:rl:email',
    redisUrl: config.redisUrl,
  });
  const audit = new AuditService(db, users);
  const memberships = new WorkspaceCache<Membership>({ maxEntries: 10_000 }).shareThrough(realtime, ACCESS_CHANGED);
  const workspaces = new WorkspacesService(db, users, audit, publicImages, memberships, events);
  const members = new MembersService({ db, users, audit, mailer, workspaces, realtime, publicUrl: config.publicUrl });
  const roles = new RolesService(db, audit, workspaces);
  const privateFiles = new PrivateFileStore(db, storage, cipher);
  const patientListCache = createPatientListCache(config.patientListCache).shareThrough(realtime, PATIENTS_CHANGED);
  const patients = new PatientsService(db, users, workspaces, events, cipher, patientListCache);
  // Once per database: medication written in clear by earlier versions is encrypted, then its column dropped.
  await patients.encryptClearMedication();
  const history = new HistoryService(db, patients, users, cipher, audit);
  const documents = new DocumentsService(db, patients, users, cipher, storage, new StorageCleanup(jobs, storage, filesRoot), audit);
  patients.countDocumentsWith(documents.count);
  patients.addErasureStep(documents.eraseWithPatient);
  const imports = new PatientImportService(db, patients, workspaces, cipher, jobs);
  const exporter = new PatientExportService(patients, history, documents, workspaces);
  const tasks = new TasksService(db, patients);
  const chat = wireChat({
    db,
    cipher,
    realtime,
    jobs,
    mailer,
    users,
    workspaces,
    patients,
    documents,
    publicUrl: config.publicUrl,
    log: app.log,
    clock: opts.clock,
  });
  const consents = wireConsents({
    db,
    config,
    log: app.log,
    clock: opts.clock,
    mailer,
    jobs,
    users,
    workspaces,
    patients,
    documents,
    audit,
    storage,
    cipher,
  });
  const {
    sessions,
    reminders,
    invoicing,
    locations,
    notificationSettings,
    register: registerSessionRoutes,
  } = wireSessions({
    db,
    config,
    log: app.log,
    clock: opts.clock,
    realtime,
    events,
    jobs,
    mailer,
    patients,
    users,
    workspaces,
    history,
    meetLink: (session) => meet.patientLink(session),
  });
  const booking = wireBooking({
    db,
    events,
    users,
    workspaces,
    locations,
    sessions,
    patients,
    cipher,
    mailer,
    jobs,
    log: app.log,
    hash: tokens.hashSecret,
    publicUrl: config.publicUrl,
    mailFrom: config.mailFrom,
    therapistWants: (workspaceId, userId) => notificationSettings.noticesOf(workspaceId, userId),
    perIpPerMinute: config.rateLimit.perIpPerMinute,
    clock: opts.clock,
  });
  const {
    invoices,
    issuing,
    auto,
    register: registerInvoiceRoutes,
  } = wireInvoices({
    db,
    events,
    jobs,
    audit,
    patients,
    users,
    workspaces,
    sessions: invoicing,
    clock: opts.clock,
    verifactuAeat: config.verifactuAeat,
    verifactuProducer: config.verifactuProducer,
  });
  const { gateway, sandbox } = createPaymentsGateway({
    stripe: config.stripe,
    db,
    jobs,
    publicUrl: config.publicUrl,
    appSecret: config.appSecret,
    clock: opts.clock,
  });
  const payments = wirePayments({
    db,
    gateway,
    events,
    jobs,
    mailer,
    log: app.log,
    patients,
    users,
    workspaces,
    invoices,
    issuing,
    auto,
    sessions: invoicing,
    publicUrl: config.publicUrl,
    perIpPerMinute: config.rateLimit.perIpPerMinute,
    clock: opts.clock,
  });
  sandbox?.deliverTo(async (raw, signature) => void (await payments.webhooks.receive(raw, signature)));
  booking.acceptPayments(payments.bookings);
  const meet = new MeetService({
    appSecret: config.appSecret,
    publicUrl: config.publicUrl,
    iceServers: config.iceServers,
    sessions,
    users,
    sessionByLink: (id) => sessionByLink(db, id),
  });
  const meetHub = new MeetHub(realtime, meet.tokens, app.log, opts.meet);
  const auth = new AuthService({
    db,
    users,
    tokens,
    mailer,
    realtime,
    revoked,
    emailLimiter,
    publicUrl: config.publicUrl,
    onUserCreated: (tx, user) => workspaces.createPersonal(tx, user),
  });
  const patientAccounts = wirePatientAccounts({
    db,
    auth,
    mailer,
    patients,
    workspaces,
    users,
    audit,
    emailLimiter,
    hash: tokens.hashSecret,
    publicUrl: config.publicUrl,
    perIpPerMinute: config.rateLimit.perIpPerMinute,
  });
  chat.linkPatients(patientAccounts.accounts.chatLink);
  const companion = wireCompanion({
    db,
    accounts: patientAccounts.accounts,
    documents,
    users,
    bookings: booking.manage,
    meetLink: (s) => meet.patientLink(s),
    clock: opts.clock,
  });
  const companionBilling = wireCompanionBilling({
    accounts: patientAccounts.accounts,
    signing: consents.signing,
    invoices,
    payments,
    users,
    workspaces,
    publicUrl: config.publicUrl,
    clock: opts.clock,
  });
  // After listening to the broker: a revocation is either in the database read here or heard later.
  await auth.loadRevokedSessions();
  bridgeToSockets(
    events,
    realtime,
    workspaces.memberUserIds,
    [...PATIENT_EVENTS, ...SESSION_EVENTS, ...SERIES_EVENTS, 'workspace.access_changed', 'invoice.paid'],
    app.log,
  );
  jobs.sweep('auth.expired', auth.sweepExpired);
  jobs.sweep('patients.retention-erasure', () => patients.eraseExpiredBlocked());
  jobs.sweep('history.stale-drafts', () => history.sweepDrafts());
  app.decorate('services', {
    database,
    realtime,
    events,
    jobs,
    mailer,
    users,
    auth,
    workspaces,
    patients,
    cipher,
    members,
    history,
    documents,
    sessions,
    reminders,
    meet,
    privateFiles,
    payments,
    paymentsSandbox: sandbox,
    consentTemplates: consents.templates,
    consentEnvelopes: consents.envelopes,
    consentSigning: consents.signing,
    seal: consents.seal,
    chat: chat.chat,
    chatUnreadMail: chat.unreadMail,
    linkChatPatients: chat.linkPatients,
  });

  const webDist = config.webDist ?? (existsSync(defaultWebDist) ? defaultWebDist : undefined);
  // Each request is logged only at debug level; warnings and errors always.
  if (config.logLevel !== 'debug' && config.logLevel !== 'trace') app.addHook('onRoute', (route) => void (route.logLevel ??= 'warn'));
  // A null where a body's field is optional is that field left out (absent-nulls.ts).
  app.setValidatorCompiler(requestValidator);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  /** The patient's companion (its own entry of the web build, an installable app) for /p and /p/…; no other site may frame it. */
  const companionPage: WebPage = { prefix: '/p/', file: 'companion.html' };
  registerSecurityHeaders(app, inlineScriptHashes(webDist, [booking.webPage.file, companionPage.file]));
  // The plugin does not close the client it is given: we do, or the process could not exit.
  const rateLimitRedis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  if (rateLimitRedis) app.addHook('onClose', async () => void (await rateLimitRedis.quit()));
  await app.register(rateLimit, { global: false, redis: rateLimitRedis, nameSpace: 'divan:rl:ip:' });
  await registerMemberRateLimits(app, { ...config.rateLimit, redisUrl: config.redisUrl });
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10 } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(accessPlugin, { tokens, resolveMembership: workspaces.resolveMembership });
  registerClientVersionCheck(app);
  refuseStrayUpgrades(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { database: database.kind });
  await app.register(authRoutes, { auth, perIpPerMinute: config.rateLimit.perIpPerMinute });
  await app.register(usersRoutes, { users });
  await app.register(filesRoutes, { publicImages });
  await app.register(workspacesRoutes, { workspaces });
  await app.register(membersRoutes, { members });
  await app.register(rolesRoutes, { roles });
  await app.register(auditRoutes, { audit });
  await app.register(patientsRoutes, { patients });
  await app.register(historyRoutes, { history });
  await app.register(documentsRoutes, { documents });
  await app.register(patientImportRoutes, { imports });
  await app.register(patientExportRoutes, { exporter });
  await app.register(tasksRoutes, { tasks });
  await chat.register(app);
  await consents.register(app);
  await booking.register(app);
  await patientAccounts.register(app);
  await companion.register(app);
  await companionBilling.register(app);
  await registerSessionRoutes(app);
  await registerInvoiceRoutes(app);
  await payments.register(app);
  if (sandbox) await app.register(sandboxPagesRoutes, { sandbox });
  await app.register(meetRoutes, { meet, perIpPerMinute: config.rateLimit.perIpPerMinute });
  // A running job (an import, a mail being relayed) finishes before the database closes.
  app.addHook('preClose', () => jobs.stop());
  if (config.env !== 'production') await app.register(devJobsRoutes, { jobs });
  if (devMail) await app.register(devMailRoutes, { mailer });
  await app.register(async (scope) => realtime.register(scope));
  await app.register(async (scope) => meetHub.register(scope));
  await registerWebApp(app, webDist, [booking.webPage, companionPage]);

  await jobs.start();
  // Reminders that fell due while no server ran go now, not at the next minute's sweep.
  await reminders.catchUp();
  await realtime.start();
  meetHub.start();
  await events.start();
  app.addHook('onClose', async () => {
    await events.stop();
    meetHub.stop();
    await realtime.stop();
    await emailLimiter.close();
    mailer.close();
    await database.close();
  });
}
