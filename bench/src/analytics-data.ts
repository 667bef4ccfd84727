// The statistics scenario of issue 28: the calendar bench's clinic (calendar-data.ts: 50 therapists, 20,000
// patients, 300,000 sessions over two years) or a freelance practice made by the same generator (one
// therapist, 1,500 sessions a year for five years, on PGlite), plus what the statistics count beyond the
// sessions: the patients' treatment fields (assigned therapist, start and end, ending reason, referral,
// session type, gender, birthdate, when they were added) and the issued invoices of the invoiced sessions.
//
// The invoices are written straight as issued, one per invoiced session (a few by substitution), in the
// columns the statistics read, with the buyer as invoices-data.ts builds it; without lines, VERI*FACTU
// records or counters, which no statistic reads (the invoicing bench checks those).
//
// Generated datasets are kept (bench/results/cache/, git-ignored; PostgreSQL as a database named after the
// dataset's key): a re-run the same day, on the same migrations and generator, starts from the copy.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import pg from 'pg';
import { todayIn } from '@divan/core';
import { CALENDAR_TZ, seedClinic, type Clinic, type ClinicOptions } from './calendar-data';
import { copyDataDir, createDataset, keyFileOf, refreshSession, type Dataset, type Session } from './dataset';
import { BUYER_OF_PATIENT } from './invoices-data';
import { openSql, type Sql } from './patients';
import { startDivan } from './servers';
import { root } from './util';

export type AnalyticsData = Clinic & {
  practice: 'clinic' | 'freelance';
  /** The first and last local day holding a session: the whole history. */
  firstDay: string;
  lastDay: string;
  invoices: number;
  ended: number;
  /** Seconds to generate it (the cached run's original seconds when it came from the cache). */
  seconds: number;
  fromCache: boolean;
};

/** Treatment fields and invoices over the generated sessions (same database, same transaction). */
async function enrich(db: Sql, workspaceId: string, practice: 'clinic' | 'freelance'): Promise<void> {
  const zone = CALENDAR_TZ;
  await db.query('begin');
  // A freelance therapist is paid for their own sessions and invoices as themself.
  if (practice === 'freelance')
    await db.query(`update sessions set payments_receiver = 'therapist', fee = price where workspace_id = $1`, [workspaceId]);
  // Each patient sees one therapist (calendar-data.ts: the patient of session n is n·7919 mod P, its
  // therapist n mod T, and T divides P): that one is assigned. Added a week before their first session;
  // the treatment starts with it; the inactive ones ended at a hashed day between it and their last.
  await db.query(
    `with f as (select patient_id, min(starts_at) as first_at,
                       max(starts_at) filter (where status = 'completed') as last_done,
                       (array_agg(therapist_id))[1] as therapist_id
                  from sessions where workspace_id = $1 group by patient_id)
     update patients p
        set assigned_therapist_id = f.therapist_id,
            created_at = f.first_at - interval '7 days',
            treatment_start_date = (f.first_at at time zone $2)::date,
            treatment_end_date = case when p.treatment_status = 'inactive' and f.last_done is not null
              then ((f.first_at + (f.last_done - f.first_at) * ((abs(hashtext(p.id::text)) % 100) / 100.0)) at time zone $2)::date end,
            treatment_ending_reason = case when p.treatment_status = 'inactive' and f.last_done is not null
              then (array['completed', 'abandoned', 'abandoned', 'economic', 'health', 'personal', 'professional', 'other'])[1 + abs(hashtext(p.id::text || 'r')) % 8] end,
            treatment_referral_source = (array['website', 'social_media', 'friend', 'therapist', 'patient', null])[1 + abs(hashtext(p.id::text || 's')) % 6],
            treatment_session_type = (array['individual', 'individual', 'individual', 'couple', 'family'])[1 + abs(hashtext(p.id::text || 't')) % 5],
            gender = (array['female', 'female', 'male', 'male', 'other', null])[1 + abs(hashtext(p.id::text || 'g')) % 6],
            birthdate = case when abs(hashtext(p.id::text || 'b')) % 10 = 0 then null else date '1945-01-01' + abs(hashtext(p.id::text || 'd')) % 22000 end
       from f
      where p.id = f.patient_id and p.workspace_id = $1`,
    [workspaceId, zone],
  );
  // An issued invoice per invoiced session, numbered per seller and year in issue order; one in ten of the
  // last 90 days' (and one in fifty of the older) still unpaid, so the ageing has every bucket.
  await db.query(
    `with s as (select s.*, (s.starts_at at time zone $2)::date as day,
                       case when s.payments_receiver = 'therapist' then 'user:' || s.therapist_id else 'workspace:' || s.workspace_id end as seller_key
                  from sessions s where s.workspace_id = $1 and s.invoiced),
          n as (select s.*, extract(year from day)::int as year,
                       row_number() over (partition by seller_key, extract(year from day) order by starts_at, id) as seq,
                       abs(hashtext(s.id::text)) % 100 as h
                  from s)
     insert into invoices (workspace_id, owner_id, seller_type, seller_key, patient_id, status, kind, series, sequence, number, issue_date, issued_at,
                           buyer, subtotal, total, payment_status, payment_type, paid_at, charge_date, created_by, created_at, updated_at)
     select n.workspace_id, n.therapist_id, case when n.payments_receiver = 'therapist' then 'therapist' else 'workspace' end, n.seller_key, n.patient_id,
            'issued', 'ordinary', n.year::text, n.seq, n.year || '-' || lpad(n.seq::text, greatest(4, length(n.seq::text)), '0'), n.day, n.ends_at,
            ${BUYER_OF_PATIENT}, n.price, n.price,
            x.pay, case when x.pay = 'paid' then coalesce(n.payment_type, 'card') end, case when x.pay = 'paid' then coalesce(n.paid_at, n.ends_at) end,
            case when x.pay = 'paid' then n.day end, n.created_by, n.ends_at, n.ends_at
       from n
       join patients p on p.id = n.patient_id
      cross join lateral (select case when (n.starts_at > now() - interval '90 days' and n.h < 10) or n.h < 2 then 'pending' else 'paid' end as pay) x`,
    [workspaceId, zone],
  );
  // One in a hundred corrected by substitution a week later (500 cents less): revenue counts the difference.
  await db.query(
    `with o as (select i.*, row_number() over (partition by seller_key, series order by issue_date, sequence) as seq
                  from invoices i
                 where i.workspace_id = $1 and i.kind = 'ordinary' and i.status = 'issued' and abs(hashtext(i.id::text || 'x')) % 100 = 0)
     insert into invoices (workspace_id, owner_id, seller_type, seller_key, patient_id, status, kind, series, sequence, number, issue_date, issued_at,
                           buyer, subtotal, total, payment_status, payment_type, paid_at, charge_date, rectifies_id, rectification_method, rectification_reason,
                           created_by, created_at, updated_at)
     select workspace_id, owner_id, seller_type, seller_key, patient_id, 'issued', 'rectifying', 'R' || series, seq, 'R' || series || '-' || lpad(seq::text, greatest(4, length(seq::text)), '0'),
            issue_date + 7, issued_at + interval '7 days', buyer, subtotal - 500, total - 500, payment_status, payment_type,
            paid_at + interval '7 days', charge_date, id, 'substitution', 'Importe corregido', created_by, issued_at + interval '7 days', issued_at + interval '7 days'
       from o`,
    [workspaceId],
  );
  await db.query('commit');
  await db.query('vacuum analyze');
  await db.query('checkpoint');
}

async function summary(db: Sql, clinic: Clinic, practice: 'clinic' | 'freelance', seconds: number): Promise<AnalyticsData> {
  const [r] = (
    await db.query<{ first: string; last: string; invoices: number; ended: number }>(
      `select (select to_char(min(starts_at) at time zone $2, 'YYYY-MM-DD') from sessions where workspace_id = $1) as first,
              (select to_char(max(starts_at) at time zone $2, 'YYYY-MM-DD') from sessions where workspace_id = $1) as last,
              (select count(*)::int from invoices where workspace_id = $1) as invoices,
              (select count(*)::int from patients where workspace_id = $1 and treatment_end_date is not null) as ended`,
      [clinic.workspaceId, CALENDAR_TZ],
    )
  ).rows;
  return { ...clinic, practice, firstDay: r!.first, lastDay: r!.last, invoices: r!.invoices, ended: r!.ended, seconds, fromCache: false };
}

// --- the cache ------------------------------------------------------------------------------------

const cacheRoot = resolve(root, 'bench/results/cache');

/**
 * What a dataset depends on: its sizes, the day it was generated on (sessions are past or future from
 * then), the server's migrations, and the generators' code. Any change makes a new one.
 */
function cacheKey(kind: 'postgres' | 'pglite', o: ClinicOptions): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ kind, o, today: todayIn(CALENDAR_TZ) }));
  const migrations = resolve(root, 'apps/server/drizzle');
  for (const f of readdirSync(migrations)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    h.update(f).update(readFileSync(resolve(migrations, f)));
  for (const f of ['analytics-data.ts', 'calendar-data.ts', 'patients.ts', 'invoices-data.ts'])
    h.update(readFileSync(resolve(root, 'bench/src', f)));
  return h.digest('hex').slice(0, 12);
}

type Meta = { data: AnalyticsData; session: Session; databaseName?: string };

async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await c.connect();
  try {
    return (await c.query(`select 1 from pg_database where datname = $1`, [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Cached datasets of this kind but another key (another day, other migrations): removed, databases dropped. */
async function pruneCache(adminUrl: string, kind: string, keep: string): Promise<void> {
  if (!existsSync(cacheRoot)) return;
  for (const entry of readdirSync(cacheRoot)) {
    if (!entry.startsWith(`${kind}-`) || entry === keep) continue;
    const metaFile = resolve(cacheRoot, entry, 'meta.json');
    if (existsSync(metaFile)) {
      const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Meta;
      if (meta.databaseName) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${meta.databaseName} WITH (FORCE)`).catch(() => undefined);
    }
    rmSync(resolve(cacheRoot, entry), { recursive: true, force: true });
  }
}

/** Copies a data dir (but its lock) and its clinical key file to `to`. */
function copyDir(from: string, to: string) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, filter: (src) => basename(src) !== 'divan.lock' });
  if (existsSync(keyFileOf(from))) cpSync(keyFileOf(from), keyFileOf(to));
}

export type AnalyticsDataset = { ds: Dataset; data: AnalyticsData };

const metaFiles = new WeakMap<Dataset, string>();

/** After a token refresh: the rotated refresh token into the cache, else the next run's is refused. */
export function keepSession(ds: Dataset): void {
  const file = metaFiles.get(ds);
  if (!file) return;
  const meta = JSON.parse(readFileSync(file, 'utf8')) as Meta;
  writeFileSync(file, JSON.stringify({ ...meta, session: ds.session }, null, 2));
}

/**
 * The clinic on PostgreSQL (`adminUrl`'s server) or the freelance practice on PGlite, with its server
 * running and its owner signed in: from the cache when a dataset of the same key is there, else generated
 * and then kept. PostgreSQL runs on the cached database itself (the statistics only read); PGlite on a
 * copy of the cached data dir.
 */
export async function analyticsDataset(
  kind: 'postgres' | 'pglite',
  o: ClinicOptions,
  adminUrl: string,
  log: (msg: string) => void,
): Promise<AnalyticsDataset> {
  const key = cacheKey(kind, o);
  const dir = resolve(cacheRoot, `${kind}-${key}`);
  const dataDir = resolve(dir, 'data');
  const metaFile = resolve(dir, 'meta.json');
  const databaseName = `divan_bench_analytics_${key}`;
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  await pruneCache(adminUrl, kind, basename(dir));

  if (existsSync(metaFile) && (kind === 'pglite' || (await databaseExists(adminUrl, databaseName)))) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Meta;
    const runDir = kind === 'pglite' ? copyDataDir(dataDir) : dataDir;
    const server = await startDivan({
      dataDir: runDir,
      databaseUrl: kind === 'postgres' ? url.toString() : undefined,
      loopProbe: kind === 'pglite',
    });
    try {
      await refreshSession(server.url, meta.session);
      // The rotated refresh token, for the next run — on PostgreSQL only: PGlite runs on a copy, and the
      // cached data dir still knows the token the cache holds (the rotated one would be refused next time).
      if (kind === 'postgres') writeFileSync(metaFile, JSON.stringify(meta, null, 2));
      log(`cached dataset ${basename(dir)} (generated in ${meta.data.seconds.toFixed(0)} s)`);
      const ds: Dataset = {
        kind,
        server,
        dataDir: runDir,
        databaseUrl: kind === 'postgres' ? url.toString() : undefined,
        users: 1,
        seconds: 0,
        session: meta.session,
      };
      if (kind === 'postgres') metaFiles.set(ds, metaFile);
      return { ds, data: { ...meta.data, fromCache: true } };
    } catch (err) {
      log(`the cached dataset is unusable (${(err as Error).message.split('\n')[0]}): generating it again`);
      await server.stop();
    }
  }

  // Generate: a fresh dataset (temporary), seeded, then kept under the cache's names.
  if (kind === 'postgres') await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  const started = performance.now();
  const ds = await createDataset(kind, { users: 1, adminUrl, concurrency: 1 });
  const practice = o.practice ?? 'clinic';
  const stopped = kind === 'pglite' ? { stopped: () => ds.server.stop().then(() => undefined) } : {};
  const clinic = await seedClinic(ds, o, stopped);
  const db = await openSql(ds);
  let data: AnalyticsData;
  try {
    log('treatment fields and invoices');
    await enrich(db, clinic.workspaceId, practice);
    data = await summary(db, clinic, practice, (performance.now() - started) / 1000);
  } finally {
    await db.close();
  }
  mkdirSync(dir, { recursive: true });
  if (kind === 'postgres') {
    // The temporary database becomes the cached one: the server is stopped, renamed, restarted on it.
    await ds.server.stop();
    const temp = new URL(ds.databaseUrl!).pathname.slice(1);
    await adminQuery(adminUrl, `ALTER DATABASE ${temp} RENAME TO ${databaseName}`);
    copyDir(ds.dataDir, dataDir);
    ds.databaseUrl = url.toString();
    ds.dataDir = dataDir;
  } else {
    copyDir(ds.dataDir, dataDir);
  }
  writeFileSync(
    metaFile,
    JSON.stringify({ data, session: ds.session, databaseName: kind === 'postgres' ? databaseName : undefined }, null, 2),
  );
  ds.server = await startDivan({ dataDir: ds.dataDir, databaseUrl: ds.databaseUrl, loopProbe: kind === 'pglite' });
  // PGlite runs on the generated dir, not the cache's copy: its rotated tokens are not the cache's.
  if (kind === 'postgres') metaFiles.set(ds, metaFile);
  return { ds, data };
}
