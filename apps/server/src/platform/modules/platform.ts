import type { FastifyBaseLogger } from 'fastify';
import { ACCESS_TOKEN_TTL_S } from '@divan/core';
import { RevokedSessions } from '../auth/revoked-sessions';
import { createTokenService, type TokenService } from '../auth/tokens';
import { devMailEnabled, type Config } from '../config';
import type { Cipher } from '../crypto/cipher';
import { openCipher } from '../crypto/open-cipher';
import type { Database, Db } from '../db/database';
import { EventBus } from '../events/event-bus';
import { createRateLimiter, type RateLimiter } from '../http/rate-limiter';
import { Jobs } from '../jobs/jobs';
import { Lifecycle } from '../lifecycle/lifecycle';
import { Mailer, OUTBOX_KEY } from '../mail/mailer';
import { inProcessBroker, redisBroker } from '../realtime/broker';
import { Realtime, type RealtimeOptions } from '../realtime/realtime';
import { checkInstallation } from '../storage/installation';
import { PrivateFileStore } from '../storage/private-file-store';
import { PublicImageStore } from '../storage/public-image-store';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/storage';

/** What the platform takes besides the configuration (tests move the clock, shorten the sockets' timers). */
export type PlatformOptions = {
  realtime?: RealtimeOptions;
  /** The clock time-driven jobs read (session reminders); tests move it. Default: the real one. */
  clock?: () => Date;
  /** drizzle/ of this build: readiness holds its newest migration applied. */
  migrationsFolder?: string;
};

/** What every module may build on: the database, the bus, jobs, mail, sockets, keys and files. */
export type Platform = {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  clock?: () => Date;
  tokens: TokenService;
  revoked: RevokedSessions;
  realtime: Realtime;
  events: EventBus;
  cipher: Cipher;
  jobs: Jobs;
  mailer: Mailer;
  /** /dev/mail is served (and sent mail kept readable a day). */
  devMail: boolean;
  /** DATA_DIR/files, or the S3 bucket of S3_BUCKET (open-storage.ts). */
  storage: Storage;
  publicImages: PublicImageStore;
  privateFiles: PrivateFileStore;
  /** Sign-in and code mails per address (AUTH_RATE_LIMIT_EMAIL). */
  emailLimiter: RateLimiter;
  /** Ready, or draining since SIGTERM (GET /health/ready). */
  lifecycle: Lifecycle;
};

export async function buildPlatform(config: Config, database: Database, log: FastifyBaseLogger, opts: PlatformOptions): Promise<Platform> {
  const { db } = database;
  // Ended sessions' access tokens are refused until they would have expired anyway (+1 min for clocks).
  const revoked = new RevokedSessions(ACCESS_TOKEN_TTL_S * 1000 + 60_000);
  const tokens = createTokenService(config.appSecret, revoked);
  const broker = config.redisUrl ? await redisBroker(config.redisUrl, log) : inProcessBroker(log);
  await revoked.listen(broker);
  const realtime = new Realtime(broker, tokens, log, opts.realtime);
  const events = new EventBus(broker, log);
  // Master key, then every workspace's data key (the mail outbox's created now: mail is written inside transactions).
  const cipher = await openCipher(db, config, [OUTBOX_KEY]);
  const jobs = new Jobs(database, {
    log,
    runWorkers: config.runJobs !== false,
    maintenanceIntervalSeconds: config.jobsMaintenanceSeconds,
    workerLostSeconds: config.jobsWorkerLostSeconds,
  });
  const devMail = config.devMail ?? devMailEnabled(config.env, config.smtpUrl, undefined);
  const mailer = new Mailer(db, jobs, cipher, tokens.hashSecret, log, {
    smtpUrl: config.smtpUrl,
    // Readable at /dev/mail for a day; with no outbox to read, a sent mail keeps no code or link at once.
    keepReadableMs: devMail ? 24 * 3_600_000 : 0,
    from: config.mailFrom,
    retryDelaySeconds: config.mailRetryDelaySeconds,
  });
  const storage = await openStorage(config);
  // A process whose DATA_DIR (or bucket) is not the one the others store files in stops here (installation.ts).
  await checkInstallation(db, { storage, dataDir: config.s3 ? undefined : config.dataDir, shared: database.kind === 'postgres' });
  const emailLimiter = await createRateLimiter({
    max: config.rateLimit.perEmailPer15Min,
    windowMs: 15 * 60_000,
    prefix: 'divan:rl:email',
    redisUrl: config.redisUrl,
  });
  return {
    config,
    database,
    db,
    log,
    clock: opts.clock,
    tokens,
    revoked,
    realtime,
    events,
    cipher,
    jobs,
    mailer,
    devMail,
    storage,
    publicImages: new PublicImageStore(db, storage),
    privateFiles: new PrivateFileStore(db, storage, cipher),
    emailLimiter,
    lifecycle: new Lifecycle(db, opts.migrationsFolder),
  };
}
