import { sql } from 'drizzle-orm';
import { PLAN_IDS } from '@divan/core';
import { ConfigError, loadConfig } from './platform/config';
import { DataDirInUseError } from './platform/db/data-dir-lock';
import { backup, backupPassphrase, restore } from './platform/db/backup';
import { BackupError } from './platform/crypto/backup-archive';
import { rotateClinicalKey } from './platform/crypto/rotate';
import { AppError } from './platform/errors';
import { StorageMoveError } from './platform/storage/move-storage';
import { appUrlForCommands } from './platform/server-address';

/**
 * Operator commands: `backup [file]`, `restore <file> [--force]`, `admin …` and `demo`.
 * A backup is one file encrypted with its own passphrase (platform/db/backup.ts); the clinical
 * master key is never in it.
 */
const [command, ...args] = process.argv.slice(2);
const USAGE = `Usage:
  npm run backup [-- <file or folder>]          (BACKUP_PASSPHRASE, or asked for)
  npm run restore -- <file> [--force]
  npm run admin -- list-workspaces
  npm run admin -- set-plan <workspaceId> <basic|advance|team|none> [--seats N] [--period-end YYYY-MM-DD]
  npm run admin -- staff <email> <on|off>             (Diván's staff: the training library's upload tool)
  npm run admin -- rotate-clinical-key
  npm run storage:move -- --to <s3|disk>           (copies every file DATA_DIR/files ⇄ S3_BUCKET, verified, resumable)
  npm run demo`;

async function main() {
  const config = loadConfig();
  if (command === 'backup') return console.log(`Copia cifrada escrita en ${await backup(config, await backupPassphrase(true), args[0])}`);
  if (command === 'restore') {
    const from = args.find((a) => !a.startsWith('--'));
    if (!from) throw new ConfigError('Usage: npm run restore -- <backup file> [--force]');
    return console.log(await restore(config, from, () => backupPassphrase(false), args.includes('--force')));
  }
  if (command === 'admin') return admin(config, args);
  if (command === 'demo') return demo(config);
  if (command === 'storage-move') return storageMove(config, args);
  throw new ConfigError(USAGE);
}

/** Operator commands on workspaces. On PGlite the server must be stopped (one process owns the data). */
async function admin(config: ReturnType<typeof loadConfig>, argv: string[]) {
  const [sub, ...rest] = argv;
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const { buildApp } = await import('./app');
  const app = await buildApp(config, { logger: false });
  try {
    if (sub === 'rotate-clinical-key') return await rotateClinicalKey(config, app);
    if (sub === 'list-workspaces') {
      const rows = await app.services.database.db.execute(
        sql`select w.id, w.name, w.plan_id, w.plan_seats, u.email from workspaces w join users u on u.id = w.owner_id order by w.created_at`,
      );
      for (const r of (rows as unknown as { rows: Record<string, unknown>[] }).rows)
        console.log(
          `${r.id}  ${String(r.plan_id ?? 'sin plan').padEnd(8)} ${String(r.plan_seats).padStart(3)} plazas  ${r.name} (${r.email})`,
        );
      return;
    }
    if (sub === 'staff') {
      const [email, onOff] = rest;
      if (!email || (onOff !== 'on' && onOff !== 'off')) throw new ConfigError(USAGE);
      const row = await app.services.users.setStaff(email, onOff === 'on');
      if (!row) throw new ConfigError(`No account has the email ${email}`);
      console.log(`${row.email}: ${row.staff ? 'staff of Diván (the upload tool is open to them)' : 'not staff'}`);
      return;
    }
    if (sub === 'set-plan') {
      const [workspaceId, planArg] = rest;
      const plan = planArg === 'none' ? null : PLAN_IDS.find((p) => p === planArg);
      if (!workspaceId || plan === undefined) throw new ConfigError(USAGE);
      const seats = flag('seats') ? Number.parseInt(flag('seats')!, 10) : undefined;
      if (seats !== undefined && (!Number.isInteger(seats) || seats < 1))
        throw new ConfigError('--seats must be a whole number of at least 1');
      const periodEnd = flag('period-end') ? new Date(`${flag('period-end')}T23:59:59Z`) : undefined;
      if (periodEnd && Number.isNaN(periodEnd.getTime())) throw new ConfigError('--period-end must be a date, YYYY-MM-DD');
      const row = await app.services.workspaces.setPlan(workspaceId, { id: plan, seats, periodEnd });
      console.log(`${row.name}: plan ${row.planId ?? 'none'}, ${row.planSeats} seats`);
      return;
    }
    throw new ConfigError(USAGE);
  } finally {
    await app.close();
  }
}

/** `storage:move -- --to s3|disk`: every file from the other driver into that one, verified; run again to resume. */
async function storageMove(config: ReturnType<typeof loadConfig>, argv: string[]) {
  const to = argv[argv.indexOf('--to') + 1];
  if (!argv.includes('--to') || (to !== 's3' && to !== 'disk')) throw new ConfigError(USAGE);
  if (!config.s3) throw new ConfigError('Falta S3_BUCKET: el cubo de destino u origen del traslado (y S3_ENDPOINT, las claves).');
  const { openStorage } = await import('./platform/storage/open-storage');
  const { moveStorage } = await import('./platform/storage/move-storage');
  const bucket = await openStorage(config);
  const disk = await openStorage({ dataDir: config.dataDir, s3: undefined });
  try {
    await (to === 's3' ? moveStorage(disk, bucket) : moveStorage(bucket, disk));
  } finally {
    bucket.close?.();
  }
}

/** A demo clinic with fictional patients, to try the app; running it again adds nothing twice. */
async function demo(config: ReturnType<typeof loadConfig>) {
  const { buildApp } = await import('./app');
  const { seedDemo } = await import('./demo/demo-seed');
  const { DEMO_PASSWORD, DEMO_THERAPISTS, DEMO_WORKSPACE } = await import('./demo/demo-data');
  const app = await buildApp(config, { logger: false });
  try {
    const r = await seedDemo(app);
    console.log(
      `Demo workspace "${DEMO_WORKSPACE}" (plan team): ${r.created} patients created, ${r.existing} already there, ${r.entries} history entries added.`,
    );
    const url = appUrlForCommands(config.dataDir, config.publicUrl);
    console.log(`\nOpen ${url} and sign in:`);
    console.log(`  email:    ${DEMO_THERAPISTS.lead.email}`);
    console.log(`  password: ${DEMO_PASSWORD}`);
    console.log(`  colleague: ${DEMO_THERAPISTS.colleague.email} (same password)`);
    if (!config.smtpUrl && config.env !== 'production')
      console.log(`Sign-in asks for a 6-digit code: without SMTP it is in the outbox, ${url}/dev/mail`);
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  const known =
    err instanceof ConfigError ||
    err instanceof DataDirInUseError ||
    err instanceof AppError ||
    err instanceof BackupError ||
    err instanceof StorageMoveError;
  console.error(known ? (err as Error).message : err);
  process.exit(1);
});
