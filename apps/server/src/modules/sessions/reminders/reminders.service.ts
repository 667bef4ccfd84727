import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../../platform/jobs/jobs';
import type { Mailer } from '../../../platform/mail/mailer';
import type { PatientsService } from '../../patients/patients.service';
import type { UsersService } from '../../users/users.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import { reminderMail } from './reminder.mail';
import { remindersRepository, type ReminderOutcome, type ReminderSession } from './reminders.repository';

export const REMINDERS_QUEUE = 'sessions.reminders';
/** Sessions handled per batch, and batches per run (a run never holds the database long). */
const BATCH = 100;
const MAX_BATCHES = 20;
/** Days a reminder's claim is kept after its session's start. */
const CLAIMS_KEPT_DAYS = 30;

export type RemindersOptions = {
  publicUrl: string;
  /** The patient's link to the video room of an online session (MeetService.patientLink). */
  meetLink?: (s: { id: string; startsAt: Date; endsAt: Date }) => string;
  /** The Google Meet link of a session whose video conference is Google Meet (google-calendar), read in the mail's transaction. */
  googleMeetLink?: (tx: Tx, sessionId: string) => Promise<string | null>;
  /** The clock the sweep reads (tests move it; default the real one). */
  now?: () => Date;
  log?: FastifyBaseLogger;
};

/** The reminder's business key: one mail per session, offset and the start it announces. */
export const reminderKey = (sessionId: string, offset: number, startsAt: Date) =>
  `reminder:${sessionId}:${offset}:${startsAt.toISOString()}`;

/**
 * Email reminders of sessions (docs/decisions/0014-session-reminders.md). A sweep every minute (a
 * pg-boss cron, plus one run at start) finds the reminders due — read from the sessions themselves,
 * so a move or a cancellation needs no bookkeeping — and, per session in one transaction, claims
 * (session, offset, start) and writes the mail to the outbox. Due while the server was down: sent at
 * start, as long as the session has not started. Two processes: the claim's primary key lets one win.
 */
export class RemindersService {
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly mailer: Mailer,
    private readonly patients: PatientsService,
    private readonly users: UsersService,
    private readonly workspaces: WorkspacesService,
    private readonly opts: RemindersOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /** Its queue, every minute (defined by the sessions module's entry). */
  readonly queue: QueueDefinition<object> = {
    name: REMINDERS_QUEUE,
    work: async () => void (await this.sendDue()),
    // A failed run is simply the next minute's: the cron comes back.
    retryLimit: 1,
    retryDelaySeconds: 30,
    expireInSeconds: 300,
    pollingIntervalSeconds: 15,
    cron: { expression: '* * * * *', data: {} },
  };

  /** The hourly sweep `sessions.reminder-claims`: a claim only matters until its session starts (the sweep reads sessions still ahead); kept a month for support. */
  purgeClaims = () => remindersRepository(this.db).purgeBefore(new Date(this.now().getTime() - CLAIMS_KEPT_DAYS * 86_400_000), 500);

  /** After the jobs start: one run now, for what fell due while no server was running. */
  catchUp = () => this.jobs.send(REMINDERS_QUEUE, {});

  /** Sends every reminder due at `now`; returns how many mails it wrote. */
  async sendDue(now = this.now()): Promise<number> {
    let sent = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const ids = await remindersRepository(this.db).dueSessionIds(now, BATCH);
      for (const id of ids) {
        try {
          if (await this.db.transaction((tx) => this.remind(tx, id, now))) sent++;
        } catch (err) {
          // One broken session (a key missing, a bad row) does not hold back the others; the next run tries it again.
          this.opts.log?.error({ err, session: id }, 'reminders: session failed');
        }
      }
      if (ids.length < BATCH) break;
    }
    return sent;
  }

  /**
   * One session's due reminders, in one transaction: all those due at once are claimed and one mail
   * goes (the nearest offset's: the same news), so a session created late never sends two at once.
   */
  private async remind(tx: Tx, sessionId: string, now: Date): Promise<boolean> {
    const repo = remindersRepository(tx);
    const s = await repo.lockSession(sessionId);
    if (!s || s.status !== 'pending' || s.startsAt <= now) return false;
    const handled = await repo.handled(s.id, s.startsAt);
    const due = s.reminders.filter((m) => s.startsAt.getTime() - m * 60_000 <= now.getTime() && !handled.has(m));
    if (!due.length) return false;
    // The plan when it falls due: a downgrade since the session was made sends only what it allows.
    const allowed = s.reminders.slice(0, (await this.workspaces.featuresOf(s.workspaceId, tx)).sessionReminders);
    const sendable = due.filter((m) => allowed.includes(m));
    const chosen = sendable.length ? Math.min(...sendable) : undefined;
    const patient = chosen === undefined ? null : await this.patients.contactOf(s.workspaceId, s.patientId, tx);
    const email = patient?.email?.trim() || null;
    const outcomes = new Map<number, ReminderOutcome>(
      due.map((m) => [m, !allowed.includes(m) ? 'over_plan' : m !== chosen ? 'merged' : email ? 'sent' : 'no_email']),
    );
    const claimed = await repo.claim(s.workspaceId, s.id, s.startsAt, outcomes);
    if (chosen === undefined || !email || !patient || !claimed.has(chosen)) return false;
    await this.mailer.send(await this.mailFor(s, email, patient.firstName, tx), {
      tx,
      key: reminderKey(s.id, chosen, s.startsAt),
      purpose: 'session_reminder',
      workspaceId: s.workspaceId,
    });
    return true;
  }

  /** Diván's own room, or the Google Meet the session's event carries (none until it is synced). */
  private async videoLinkOf(s: ReminderSession, tx: Tx): Promise<string | null> {
    if (s.videoConference === 'own') return this.opts.meetLink ? this.opts.meetLink(s) : null;
    if (s.videoConference === 'google_meet') return (await this.opts.googleMeetLink?.(tx, s.id)) ?? null;
    return null;
  }

  private async mailFor(s: ReminderSession, to: string, patientFirstName: string, tx: Tx) {
    const [therapist, brand] = await Promise.all([this.users.findById(s.therapistId, tx), this.workspaces.brandOf(s.workspaceId, tx)]);
    const therapistName = [therapist?.firstName, therapist?.lastName].filter(Boolean).join(' ') || brand.name;
    const online = s.modality === 'online';
    return reminderMail({
      to,
      patientFirstName,
      therapistName,
      brand: { name: brand.name, logoUrl: brand.logoPath ? `${this.opts.publicUrl}${brand.logoPath}` : null },
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      timeZone: s.timeZone,
      modality: s.modality,
      place: s.locationName ? { name: s.locationName, address: s.locationAddress } : null,
      videoLink: online ? await this.videoLinkOf(s, tx) : null,
    });
  }
}
