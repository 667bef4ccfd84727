import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import { isValidSpanishTaxId, normalizeTaxId, parseIceServers, type IceServer } from '@divan/core';
import { verifactuProducer, type VerifactuProducerConfig } from './verifactu-producer';
import { operatorSeller, type OperatorSeller } from './operator-seller';
import { CLINICAL_KEY_FORMAT, parseKey } from './crypto/master-key';
import { readP12, SealCertificateError } from './documents/seal/certificate';
import { isSocialConfigError, socialConfig, type SocialConfig } from './social-config';
import type { S3Config } from './storage/s3-storage';

/** Environment of ARCHITECTURE.md. A wrong value stops start-up with one line naming the variable. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Default: http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional(),
  /** A streaming replica of DATABASE_URL for the heavy reads (statistics, exports, calendars, the public month); unset: all on the primary. */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Diván <no-reply@divan.local>'),
  /** Where users' comments (Ajustes → Ayuda) are mailed, and the contact address that screen shows; unset: kept only, no address shown. */
  OPERATOR_EMAIL: z.email('must be an email address').optional(),
  LEARNING_UPLOAD_TOKEN: z.string().min(12, 'must be at least 12 characters').optional(),
  LEARNING_STAFF_EMAILS: z.string().optional(),
  /** Diván as the seller of its own invoices (all five, or none: the development seller). */
  OPERATOR_NAME: z.string().optional(),
  OPERATOR_NIF: z.string().optional(),
  OPERATOR_ADDRESS: z.string().optional(),
  OPERATOR_POSTAL_CODE: z.string().optional(),
  OPERATOR_CITY: z.string().optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The clinical master key (32 bytes, base64 or hex); unset: the key file below. */
  CLINICAL_KEY: z
    .string()
    .refine((v) => !!parseKey(v), CLINICAL_KEY_FORMAT)
    .optional(),
  /** The previous master key while a rotation is under way (see README, "Keys and backups"). */
  CLINICAL_KEY_PREVIOUS: z
    .string()
    .refine((v) => !!parseKey(v), CLINICAL_KEY_FORMAT)
    .optional(),
  /** Without CLINICAL_KEY: the key file, outside DATA_DIR (default `<DATA_DIR>.clinical-key`), created by the first start. */
  CLINICAL_KEY_FILE: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** The signing secret (`whsec_…`) of the platform endpoint `/api/v1/billing/webhook`: Diván's own plans (issue 27). */
  STRIPE_BILLING_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Sign in with Google or Apple (social-config.ts): the issuers default to Google's and Apple's. */
  GOOGLE_ISSUER: z.url().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  APPLE_TEAM_ID: z.string().optional(),
  APPLE_KEY_ID: z.string().optional(),
  APPLE_PRIVATE_KEY: z.string().optional(),
  APPLE_ISSUER: z.url().optional(),
  /** Google Calendar (issue 30): where Google's OAuth consent page, token endpoint and Calendar API live (tests point them at a fake). */
  GOOGLE_OAUTH_BASE: z.url().optional(),
  GOOGLE_TOKEN_BASE: z.url().optional(),
  GOOGLE_API_BASE: z.url().optional(),
  /** Minutes between the polling syncs of the chosen busy calendars (the fallback of push notifications). */
  GOOGLE_CALENDAR_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Requests per minute per IP on each auth call, and per email per 15 minutes. */
  AUTH_RATE_LIMIT_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_EMAIL: z.coerce.number().int().positive().default(10),
  /** Per member per minute: uploads (documents, imports, pictures) and exports (JSON, PDF). */
  UPLOAD_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  EXPORT_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  WEB_DIST: z.string().optional(),
  /** Pages of the patient list kept in memory per process (0 turns the cache off). */
  PATIENT_LIST_CACHE: z.coerce.number().int().min(0).max(100_000).default(500),
  /** The calendar's range reads kept in memory per process (0 turns the cache off). */
  SESSION_LIST_CACHE: z.coerce.number().int().min(0).max(100_000).default(200),
  /** The statistics' tab answers kept in memory per process (0 turns the cache off). */
  ANALYTICS_CACHE: z.coerce.number().int().min(0).max(100_000).default(200),
  /** Behind a reverse proxy: trust its X-Forwarded-* headers (client IP for rate limits). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** on: keep /dev/mail (and mail readable there for 24 h) even with SMTP_URL set, e.g. for end-to-end tests. Never in production. */
  DEV_MAIL: z.enum(['on', 'off']).optional(),
  /** off: this process enqueues background jobs but runs none (web-only processes beside worker ones, on PostgreSQL). */
  JOBS: z.enum(['on', 'off']).default('on'),
  /** web: HTTP and sockets, no job handler or cron; worker: jobs and crons, HTTP only for health; all (default): both. */
  PROCESS_ROLE: z.enum(['web', 'worker', 'all']).default('all'),
  /** A job process silent this long (killed, its machine gone): another hands its running jobs back for their retry. */
  JOBS_WORKER_LOST_SECONDS: z.coerce.number().int().min(2, 'must be at least 2').max(3600, 'must be at most 3600').default(45),
  /** SIGTERM: the most a process takes to stop (drain, in-flight requests, running jobs) before it exits anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000, 'must be at least 1000').max(600_000, 'must be at most 600000').default(10_000),
  /** SIGTERM: how long readiness answers 503 while the process still takes new connections (above the balancer's check interval × fall). */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000, 'must be at most 600000').default(0),
  /** Prometheus metrics on their own listener (/metrics on this port); unset: on the main port behind METRICS_TOKEN, or none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Bearer token of /metrics on the main port (without METRICS_PORT). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Files in an S3-compatible bucket instead of DATA_DIR/files (s3-storage.ts): the bucket turns it on. */
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Default: true with S3_ENDPOINT (self-hosted stores), false on AWS. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** The video room's STUN/TURN servers, a JSON list of {urls, username?, credential?}; unset: none (host candidates only). */
  ICE_SERVERS: z
    .string()
    .refine((v) => parseIceServers(v).ok, 'must be a JSON list of {urls, username?, credential?}')
    .optional(),
  /** Sending VERI*FACTU records to the AEAT (off unless set): its VerifactuSOAP endpoint… */
  VERIFACTU_AEAT_URL: z
    .string()
    .regex(/^https:\/\/[^\s]+$/, 'must be an https:// URL')
    .optional(),
  /** …and the client certificate: a PKCS#12 file, or a PEM certificate and key; the passphrase of either. */
  VERIFACTU_AEAT_PFX: z.string().optional(),
  VERIFACTU_AEAT_CERT: z.string().optional(),
  VERIFACTU_AEAT_KEY: z.string().optional(),
  VERIFACTU_AEAT_PASSPHRASE: z.string().optional(),
  /** A PEM bundle of extra certificate authorities to trust for the endpoint (a test endpoint); unset: the system's. */
  VERIFACTU_AEAT_CA: z.string().optional(),
  /**
   * The software producer every VERI*FACTU record names (SistemaInformatico): its name and NIF, the
   * system's id (2 characters) and version, and this installation's number. Unset: development values
   * the AEAT refuses (verifactu-producer.ts); in production with VERIFACTU_AEAT_URL each is required.
   */
  VERIFACTU_PRODUCER_NAME: z.string().trim().min(1).max(120, 'must be at most 120 characters').optional(),
  VERIFACTU_PRODUCER_NIF: z
    .string()
    .refine(
      (v) => normalizeTaxId(v).length === 9 && isValidSpanishTaxId(v),
      'must be a Spanish NIF (9 characters) whose control character is right',
    )
    .optional(),
  VERIFACTU_SYSTEM_ID: z
    .string()
    .regex(/^[0-9A-Za-z]{1,2}$/, 'must be 1 or 2 letters or digits')
    .optional(),
  VERIFACTU_SYSTEM_VERSION: z.string().trim().min(1).max(50, 'must be at most 50 characters').optional(),
  VERIFACTU_INSTALLATION_NUMBER: z.string().trim().min(1).max(100, 'must be at most 100 characters').optional(),
  /** The certificate that seals signed documents (consents): a PKCS#12 file and its passphrase; unset: one made on first start and kept in DATA_DIR. */
  SEAL_P12: z.string().optional(),
  SEAL_P12_PASSPHRASE: z.string().optional(),
});

/** Where VERI*FACTU records are sent, and the client certificate of mutual TLS. */
export type VerifactuAeatConfig = { url: string; tls: { pfx?: Buffer; passphrase?: string; cert?: Buffer; key?: Buffer; ca?: Buffer } };

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** undefined: PGlite in dataDir (or in memory when dataDir is null, for tests). */
  databaseUrl?: string;
  /** DATABASE_REPLICA_URL: a streaming replica of databaseUrl for the heavy reads (platform/db/read-routing.ts). */
  databaseReplicaUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** OPERATOR_EMAIL: the operator's address (comments are mailed there; shown as the help contact); unset: none. */
  operatorEmail?: string;
  /** LEARNING_UPLOAD_TOKEN: what Diván's staff type in the training library's upload tool; unset: uploads refused. */
  learningUploadToken?: string;
  /** LEARNING_STAFF_EMAILS: accounts that are Diván's staff by the server's configuration (comma-separated), besides `npm run admin -- staff`. */
  learningStaffEmails?: string[];
  /** OPERATOR_NAME, _NIF, _ADDRESS, _POSTAL_CODE, _CITY: the seller of Diván's own invoices; unset: the development seller. */
  operatorSeller?: OperatorSeller;
  appSecret: string;
  /** CLINICAL_KEY, CLINICAL_KEY_PREVIOUS and CLINICAL_KEY_FILE as given (resolved by openCipher at start-up). */
  clinicalKey?: { key?: string; previous?: string; file?: string };
  logLevel: string;
  rateLimit: { perIpPerMinute: number; perEmailPer15Min: number; uploadsPerMinute?: number; exportsPerMinute?: number };
  webDist?: string;
  trustProxy?: boolean;
  /** Patient-list pages cached per process; 0: off. */
  patientListCache: number;
  /** SESSION_LIST_CACHE (default 200). */
  sessionListCache?: number;
  /** ANALYTICS_CACHE (default 200): the statistics' tab answers kept per process; 0: off. */
  analyticsCache?: number;
  /** Tests use an in-memory database and skip the data-dir lock. */
  inMemoryDatabase?: boolean;
  /** False (JOBS=off, or PROCESS_ROLE=web): enqueue only; some other process runs the jobs. */
  runJobs?: boolean;
  /** PROCESS_ROLE (default all): a worker serves only the health routes over HTTP. */
  processRole?: 'web' | 'worker' | 'all';
  /** JOBS_WORKER_LOST_SECONDS (default 45): when a silent job process's running jobs are handed back. */
  jobsWorkerLostSeconds?: number;
  /** SHUTDOWN_GRACE_MS (default 10000) and SHUTDOWN_DRAIN_MS (default 0): see main.ts. */
  shutdown?: { graceMs: number; drainMs: number };
  /** METRICS_PORT (own listener, no token) or METRICS_TOKEN (bearer on the main port); neither: /metrics is 404. */
  metrics?: { port?: number; token?: string };
  /** S3_*: files in a bucket; unset: on disk under DATA_DIR/files. */
  s3?: S3Config;
  /**
   * The development outbox at /dev/mail: outside production, when SMTP is unset (or DEV_MAIL=on).
   * Default (undefined): decided by those rules.
   */
  devMail?: boolean;
  /** Tests: how often expired jobs are retried (default 30 s), and the first mail retry's delay (default 30 s). */
  jobsMaintenanceSeconds?: number;
  mailRetryDelaySeconds?: number;
  /** ICE_SERVERS for the video room; unset: none. */
  iceServers?: IceServer[];
  /** VERIFACTU_AEAT_*: sending records to the AEAT; unset: off (nothing is queued). */
  verifactuAeat?: VerifactuAeatConfig;
  /** VERIFACTU_PRODUCER_* and the system's: what every record says of the software; unset: the development values. */
  verifactuProducer?: VerifactuProducerConfig;
  /** STRIPE_*: card payments through Stripe; unset: the built-in sandbox (test mode). */
  stripe?: StripeConfig;
  /** GOOGLE_CLIENT_ID/SECRET and the GOOGLE_*_BASE: Google Calendar's connection; unset: the integration is hidden. */
  googleCalendar?: GoogleCalendarConfig;
  /** SEAL_P12 (read and opened at start-up) and SEAL_P12_PASSPHRASE; unset: the seal kept in DATA_DIR (see DocumentSeal.open). */
  seal?: SealConfig;
  /** GOOGLE_CLIENT_*, APPLE_*: sign in with Google or Apple; a provider left unset is hidden. */
  social?: SocialConfig;
};

export type GoogleCalendarConfig = {
  clientId: string;
  clientSecret: string;
  /** Default https://accounts.google.com (consent page `/o/oauth2/v2/auth`). */
  oauthBase: string;
  /** Default https://oauth2.googleapis.com (`/token`, `/revoke`). */
  tokenBase: string;
  /** Default https://www.googleapis.com (Calendar API v3). */
  apiBase: string;
  pollMinutes: number;
};

export type SealConfig = { p12: Buffer; passphrase?: string };

export type StripeConfig = {
  secretKey: string;
  /** The Connect endpoint's secret (`/api/v1/payments/webhook`, patients' payments). */
  webhookSecret: string;
  /** STRIPE_BILLING_WEBHOOK_SECRET: the platform endpoint's (`/api/v1/billing/webhook`, Diván's plans); unset: plans cannot be bought. */
  billingWebhookSecret?: string;
  apiBase?: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid environment variable ${String(issue.path[0])}: ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL)
    throw new ConfigError('Invalid environment variable DATABASE_REPLICA_URL: a replica needs DATABASE_URL (its primary); PGlite has none');
  const ice = parseIceServers(e.ICE_SERVERS);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    operatorEmail: e.OPERATOR_EMAIL,
    learningUploadToken: e.LEARNING_UPLOAD_TOKEN || undefined,
    learningStaffEmails: (e.LEARNING_STAFF_EMAILS ?? '')
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
    operatorSeller: operatorSellerConfig(e),
    appSecret: e.APP_SECRET ?? persistedSecret(dataDir),
    clinicalKey: { key: e.CLINICAL_KEY, previous: e.CLINICAL_KEY_PREVIOUS, file: e.CLINICAL_KEY_FILE },
    logLevel: e.LOG_LEVEL,
    rateLimit: {
      perIpPerMinute: e.AUTH_RATE_LIMIT_IP,
      perEmailPer15Min: e.AUTH_RATE_LIMIT_EMAIL,
      uploadsPerMinute: e.UPLOAD_RATE_LIMIT,
      exportsPerMinute: e.EXPORT_RATE_LIMIT,
    },
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY === 'true',
    patientListCache: e.PATIENT_LIST_CACHE,
    sessionListCache: e.SESSION_LIST_CACHE,
    analyticsCache: e.ANALYTICS_CACHE,
    runJobs: e.JOBS === 'on' && e.PROCESS_ROLE !== 'web',
    processRole: e.PROCESS_ROLE,
    jobsWorkerLostSeconds: e.JOBS_WORKER_LOST_SECONDS,
    shutdown: shutdownConfig(e),
    metrics: e.METRICS_PORT !== undefined || e.METRICS_TOKEN ? { port: e.METRICS_PORT, token: e.METRICS_TOKEN } : undefined,
    s3: s3Config(e),
    devMail: devMailEnabled(e.NODE_ENV, e.SMTP_URL, e.DEV_MAIL),
    iceServers: ice.ok ? ice.value : [],
    verifactuProducer: verifactuProducerConfig(e),
    verifactuAeat: verifactuAeatConfig(e),
    stripe: stripeConfig(e),
    googleCalendar: googleCalendarConfig(e),
    seal: sealConfig(e),
    social: socialSettings(e),
  };
}

/** The drain is part of the grace: what is left of it goes to in-flight requests and running jobs. */
function shutdownConfig(e: z.infer<typeof envSchema>) {
  if (e.SHUTDOWN_DRAIN_MS >= e.SHUTDOWN_GRACE_MS)
    throw new ConfigError(`Invalid environment variable SHUTDOWN_DRAIN_MS: must be less than SHUTDOWN_GRACE_MS (${e.SHUTDOWN_GRACE_MS})`);
  return { graceMs: e.SHUTDOWN_GRACE_MS, drainMs: e.SHUTDOWN_DRAIN_MS };
}

/** S3_BUCKET turns the bucket on; the other S3_* mean nothing without it, and the two keys go together. */
function s3Config(e: z.infer<typeof envSchema>): S3Config | undefined {
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`Invalid environment variable ${name}: ${why}`);
  };
  if (!e.S3_BUCKET)
    return e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY
      ? fail('S3_BUCKET', 'required with S3_ENDPOINT, S3_ACCESS_KEY_ID or S3_SECRET_ACCESS_KEY')
      : undefined;
  if (!!e.S3_ACCESS_KEY_ID !== !!e.S3_SECRET_ACCESS_KEY)
    fail(e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID', 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : !!e.S3_ENDPOINT,
  };
}

function socialSettings(e: z.infer<typeof envSchema>): SocialConfig {
  try {
    return socialConfig(e);
  } catch (err) {
    if (isSocialConfigError(err)) throw new ConfigError(err.message);
    throw err;
  }
}

/** SEAL_P12: read and opened now, so a wrong file or passphrase stops start-up. */
function sealConfig(e: z.infer<typeof envSchema>): SealConfig | undefined {
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`Invalid environment variable ${name}: ${why}`);
  };
  if (!e.SEAL_P12) return e.SEAL_P12_PASSPHRASE ? fail('SEAL_P12', 'required with SEAL_P12_PASSPHRASE') : undefined;
  let p12: Buffer;
  try {
    p12 = readFileSync(resolve(e.SEAL_P12));
  } catch {
    return fail('SEAL_P12', `cannot read ${e.SEAL_P12}`);
  }
  try {
    readP12(p12, e.SEAL_P12_PASSPHRASE);
  } catch (err) {
    if (!(err instanceof SealCertificateError)) throw err;
    fail(err.reason === 'passphrase' ? 'SEAL_P12_PASSPHRASE' : 'SEAL_P12', `${err.message} (${e.SEAL_P12})`);
  }
  return { p12, passphrase: e.SEAL_P12_PASSPHRASE };
}

/** GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET turn the Calendar integration on; the bases point it elsewhere (tests: the fake Google). */
function googleCalendarConfig(e: z.infer<typeof envSchema>): GoogleCalendarConfig | undefined {
  if (!e.GOOGLE_CLIENT_ID || !e.GOOGLE_CLIENT_SECRET) return undefined;
  const base = (v: string | undefined, d: string) => (v ?? d).replace(/\/$/, '');
  return {
    clientId: e.GOOGLE_CLIENT_ID,
    clientSecret: e.GOOGLE_CLIENT_SECRET,
    oauthBase: base(e.GOOGLE_OAUTH_BASE, 'https://accounts.google.com'),
    tokenBase: base(e.GOOGLE_TOKEN_BASE, 'https://oauth2.googleapis.com'),
    apiBase: base(e.GOOGLE_API_BASE, 'https://www.googleapis.com'),
    pollMinutes: e.GOOGLE_CALENDAR_POLL_MINUTES,
  };
}

/**
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (a webhook that cannot be verified would never mark a payment);
 * STRIPE_BILLING_WEBHOOK_SECRET is optional, and only with them.
 */
function stripeConfig(e: z.infer<typeof envSchema>): StripeConfig | undefined {
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`Invalid environment variable ${name}: ${why}`);
  };
  if (!e.STRIPE_SECRET_KEY)
    return e.STRIPE_WEBHOOK_SECRET || e.STRIPE_BILLING_WEBHOOK_SECRET || e.STRIPE_API_BASE
      ? fail('STRIPE_SECRET_KEY', 'required with STRIPE_WEBHOOK_SECRET, STRIPE_BILLING_WEBHOOK_SECRET or STRIPE_API_BASE')
      : undefined;
  if (!/^(sk|rk)_(test|live)_/.test(e.STRIPE_SECRET_KEY))
    fail('STRIPE_SECRET_KEY', 'expected a Stripe secret key (sk_test_… or sk_live_…)');
  if (!e.STRIPE_WEBHOOK_SECRET) return fail('STRIPE_WEBHOOK_SECRET', 'required with STRIPE_SECRET_KEY (whsec_… from the webhook endpoint)');
  // Each endpoint has its own secret: one shared would let a Connect event verify on the platform endpoint.
  if (e.STRIPE_BILLING_WEBHOOK_SECRET && e.STRIPE_BILLING_WEBHOOK_SECRET === e.STRIPE_WEBHOOK_SECRET)
    fail('STRIPE_BILLING_WEBHOOK_SECRET', 'the platform endpoint’s own secret (/api/v1/billing/webhook), not STRIPE_WEBHOOK_SECRET');
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    billingWebhookSecret: e.STRIPE_BILLING_WEBHOOK_SECRET,
    apiBase: e.STRIPE_API_BASE,
  };
}

/** Diván's seller: all five variables or none; in production with Stripe Billing, required. */
function operatorSellerConfig(e: z.infer<typeof envSchema>): OperatorSeller | undefined {
  const { seller, problem } = operatorSeller(e);
  if (problem) throw new ConfigError(`Invalid environment variable ${problem}`);
  if (!seller && e.NODE_ENV === 'production' && e.STRIPE_SECRET_KEY && e.STRIPE_BILLING_WEBHOOK_SECRET)
    throw new ConfigError(
      'Invalid environment variable OPERATOR_NIF: OPERATOR_NAME, OPERATOR_NIF, OPERATOR_ADDRESS, OPERATOR_POSTAL_CODE and OPERATOR_CITY are required in production with STRIPE_BILLING_WEBHOOK_SECRET (Diván invoices every charge)',
    );
  return seller ?? undefined;
}

/** The software producer; in production with VERIFACTU_AEAT_URL, none of its values may be missing. */
function verifactuProducerConfig(e: z.infer<typeof envSchema>): VerifactuProducerConfig {
  const { producer, missing } = verifactuProducer(e);
  if (missing && e.NODE_ENV === 'production' && e.VERIFACTU_AEAT_URL) {
    throw new ConfigError(
      `Invalid environment variable ${missing}: required in production with VERIFACTU_AEAT_URL (the software producer every record sent to the AEAT names)`,
    );
  }
  return producer;
}

/** VERIFACTU_AEAT_*: all or nothing; the files are read and the certificate opened now, so a mistake stops start-up. */
function verifactuAeatConfig(e: z.infer<typeof envSchema>): VerifactuAeatConfig | undefined {
  const fail = (name: string, message: string): never => {
    throw new ConfigError(`Invalid environment variable ${name}: ${message}`);
  };
  const certVars = [e.VERIFACTU_AEAT_PFX, e.VERIFACTU_AEAT_CERT, e.VERIFACTU_AEAT_KEY];
  if (!e.VERIFACTU_AEAT_URL)
    return certVars.some(Boolean) ? fail('VERIFACTU_AEAT_URL', 'required with a VERI*FACTU certificate') : undefined;
  if (!e.VERIFACTU_AEAT_PFX && !e.VERIFACTU_AEAT_CERT)
    fail('VERIFACTU_AEAT_PFX', 'required with VERIFACTU_AEAT_URL (or VERIFACTU_AEAT_CERT and VERIFACTU_AEAT_KEY)');
  if (e.VERIFACTU_AEAT_CERT && !e.VERIFACTU_AEAT_KEY) fail('VERIFACTU_AEAT_KEY', 'required with VERIFACTU_AEAT_CERT');
  const read = (name: string, path: string | undefined) => {
    if (!path) return undefined;
    try {
      return readFileSync(resolve(path));
    } catch {
      return fail(name, `cannot read ${path}`);
    }
  };
  const tls = {
    pfx: read('VERIFACTU_AEAT_PFX', e.VERIFACTU_AEAT_PFX),
    cert: e.VERIFACTU_AEAT_PFX ? undefined : read('VERIFACTU_AEAT_CERT', e.VERIFACTU_AEAT_CERT),
    key: e.VERIFACTU_AEAT_PFX ? undefined : read('VERIFACTU_AEAT_KEY', e.VERIFACTU_AEAT_KEY),
    passphrase: e.VERIFACTU_AEAT_PASSPHRASE,
    ca: read('VERIFACTU_AEAT_CA', e.VERIFACTU_AEAT_CA),
  };
  try {
    createSecureContext(tls);
  } catch (err) {
    fail(
      e.VERIFACTU_AEAT_PFX ? 'VERIFACTU_AEAT_PFX' : 'VERIFACTU_AEAT_CERT',
      `the certificate does not open (${(err as Error).message}); check VERIFACTU_AEAT_PASSPHRASE`,
    );
  }
  return { url: e.VERIFACTU_AEAT_URL, tls };
}

/** /dev/mail shows login codes and reset links: never in production, and with SMTP only when asked for. */
export function devMailEnabled(env: Config['env'], smtpUrl: string | undefined, devMail: 'on' | 'off' | undefined): boolean {
  if (env === 'production' || devMail === 'off') return false;
  return !smtpUrl || devMail === 'on';
}

/** Without APP_SECRET, one is generated on first start and kept in DATA_DIR, so tokens survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = resolve(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}
