import {
  bandOf,
  isClinical,
  MEASURE_LINK_DAYS,
  MEASURE_REMINDER_DAYS,
  answerProblems,
  measureOf,
  reliableChange,
  scoreMeasure,
  oneDecimal,
  type MeasureAdministration,
  scopeFor,
  type MeasureFlags,
  type MeasureKey,
  type MeasureTrend,
  type PublicMeasure,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import type { Cipher, WorkspaceCipher } from '../../platform/crypto/cipher';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { measureTokens, type MeasureTokens } from './measure-links';
import { openResult, sealResult, type StoredResult } from './measure-result';
import { measureRequestMail, riskFlagMail } from './measures.mails';
import { measuresRepository } from './measures.repository';
import type { AdministrationRow } from './measures.tables';

const DAY = 86_400_000;
const notFound = () => new AppError('measure_not_found');

export type MeasuresDeps = {
  db: Db;
  appSecret: string;
  publicUrl: string;
  mailer: Mailer;
  jobs: Jobs;
  cipher: Cipher;
  users: UsersService;
  workspaces: WorkspacesService;
  patients: PatientsService;
  clock?: () => Date;
};

/** The status as of `now`: a sent link past its expiry is expired even before the sweep marks it. */
const statusAt = (r: AdministrationRow, now: Date) => (r.status === 'sent' && r.expiresAt && r.expiresAt <= now ? 'expired' : r.status);

/**
 * Outcome measures (issue 32). Results are clinical data: read and written with the permission of
 * the clinical history (`patient_histories`, Recepción has none), encrypted with the workspace's key,
 * every read written to the clinical access log, included in the patient's export.
 */
export class MeasuresService {
  private readonly tokens: MeasureTokens;
  constructor(private readonly d: MeasuresDeps) {
    this.tokens = measureTokens(d.appSecret);
  }

  private now = () => this.d.clock?.() ?? new Date();
  private linkOf = (id: string) => `${this.d.publicUrl}/p/cuestionario/${this.tokens.tokenFor(id)}`;

  async list(c: Caller, patientId: string): Promise<MeasureAdministration[]> {
    const p = await this.d.patients.accessible(c, patientId, 'read', 'patient_histories');
    const rows = await measuresRepository(this.d.db).ofPatient(p.id);
    await this.d.patients.logAccess(c, p, 'measures.read');
    return this.present(p.workspaceId, rows);
  }

  /** Per measure and main scale, its completed administrations in order, each against the first (Jacobson–Truax). */
  async trend(c: Caller, patientId: string): Promise<MeasureTrend> {
    const p = await this.d.patients.accessible(c, patientId, 'read', 'patient_histories');
    const rows = await measuresRepository(this.d.db).completedOf(p.id);
    await this.d.patients.logAccess(c, p, 'measures.trend.read');
    const wc = await this.d.cipher.forWorkspace(p.workspaceId);
    const lines = new Map<string, MeasureTrend[number] & { firstNum: number }>();
    for (const r of rows) {
      if (!r.resultEnc || !r.completedAt) continue;
      const result = openResult(wc, r.id, r.resultEnc);
      const m = measureOf(r.measure);
      // Every scale with a reliable-change threshold gets its own line (DASS-21's three).
      for (const s of m.scales.filter((x) => x.reliableChange !== undefined)) {
        const num = result.nums[s.key]!;
        const key = `${m.key}:${s.key}`;
        const line = lines.get(key) ?? { measure: m.key, scale: s.key, points: [], classification: null, firstNum: num };
        const change = line.points.length ? reliableChange(s, line.firstNum, num) : null;
        line.points.push({
          administrationId: r.id,
          completedAt: r.completedAt.toISOString(),
          value: oneDecimal(num, s.den),
          band: bandOf(s, num)?.label ?? null,
          clinical: isClinical(s, num),
          change,
        });
        line.classification = change;
        lines.set(key, line);
      }
    }
    return [...lines.values()].map(({ firstNum: _f, ...line }) => line);
  }

  /** A 7-day single-use link, mailed to the patient in the same transaction (a rolled-back send mails nothing). */
  async send(c: Caller, patientId: string, key: MeasureKey): Promise<MeasureAdministration & { link: string }> {
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'create', 'patient_histories', tx);
      if (!p.email) throw new AppError('measure_patient_no_email');
      return this.sendLink(tx, { workspaceId: p.workspaceId, patientId: p.id, therapistId: c.userId }, key, p);
    });
    const [out] = await this.present(row.workspaceId, [row]);
    return { ...out!, link: this.linkOf(row.id) };
  }

  /** The one send path (by hand and by schedule, measure-schedules.service.ts): the administration with its link, mailed in `tx`. */
  async sendLink(
    tx: DbOrTx,
    to: { workspaceId: string; patientId: string; therapistId: string | null },
    key: MeasureKey,
    contact: { firstName: string; email: string | null },
  ): Promise<AdministrationRow> {
    const now = this.now();
    const id = crypto.randomUUID();
    const created = await measuresRepository(tx).insert({
      id,
      workspaceId: to.workspaceId,
      patientId: to.patientId,
      therapistId: to.therapistId,
      measure: key,
      mode: 'link',
      status: 'sent',
      tokenHash: this.tokens.hashOf(this.tokens.tokenFor(id)),
      expiresAt: new Date(now.getTime() + MEASURE_LINK_DAYS * DAY),
      sentAt: now,
    });
    await this.mailLink(tx, created, contact, measureOf(key), 0);
    return created;
  }

  /** In session: the therapist enters the answers; scored at once. */
  async administer(c: Caller, patientId: string, key: MeasureKey, answers: (number | null)[]): Promise<MeasureAdministration> {
    const m = measureOf(key);
    const complete = this.complete(m.key, answers);
    await this.d.cipher.forWorkspace(c.member.workspaceId);
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'create', 'patient_histories', tx);
      const id = crypto.randomUUID();
      const now = this.now();
      const created = await measuresRepository(tx).insert({
        id,
        workspaceId: p.workspaceId,
        patientId: p.id,
        therapistId: c.userId,
        measure: key,
        mode: 'session',
        status: 'completed',
        sentAt: now,
        completedAt: now,
        resultEnc: sealResult(await this.d.cipher.forWorkspace(p.workspaceId), id, complete.result(m.key)),
        riskFlagged: complete.risk,
      });
      if (complete.risk)
        await this.mailRisk(
          tx,
          created,
          { id: p.id, name: [p.firstName, p.lastName].filter(Boolean).join(' '), therapistId: p.assignedTherapistId },
          c.userId,
        );
      await this.d.patients.touch(p.id, tx);
      return created;
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  /** A sent link stops working. A completed one cannot be cancelled. */
  async cancel(c: Caller, patientId: string, id: string): Promise<MeasureAdministration> {
    const row = await this.d.db.transaction(async (tx) => {
      const p = await this.d.patients.accessible(c, patientId, 'update', 'patient_histories', tx);
      const r = await measuresRepository(tx).find(p.id, id);
      if (!r) throw notFound();
      const locked = (await measuresRepository(tx).lock(r.id))!;
      if (statusAt(locked, this.now()) !== 'sent') throw new AppError('measure_not_pending');
      return measuresRepository(tx).update(r.id, { status: 'cancelled', cancelledAt: this.now() });
    });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  /**
   * The risk answers not yet reviewed of the patients whose clinical history the caller reads (their
   * own, or all for who reads every one), for the dashboard; names, measure and date, never the answers.
   */
  async flags(c: Caller, limit = 20): Promise<MeasureFlags> {
    const ws = c.member.workspaceId;
    const scope = scopeFor(c.member.ability, 'read', 'patient_histories', c.userId);
    if (scope.kind === 'none') throw new AppError('access_denied');
    const rows = await measuresRepository(this.d.db).unreviewedFlags(
      ws,
      scope.kind === 'all' ? null : this.d.patients.idsInScope(ws, scope),
      limit,
    );
    const names = await this.d.patients.profilesOf(ws, [...new Set(rows.map((r) => r.patientId))]);
    return rows.flatMap((r) => {
      const p = names.get(r.patientId);
      return p && r.completedAt
        ? [
            {
              administrationId: r.id,
              patient: { id: r.patientId, name: p.name },
              measure: r.measure,
              measureName: measureOf(r.measure).shortName,
              completedAt: r.completedAt.toISOString(),
            },
          ]
        : [];
    });
  }

  /** The therapist has looked at a risk answer. */
  async review(c: Caller, patientId: string, id: string): Promise<MeasureAdministration> {
    const p = await this.d.patients.accessible(c, patientId, 'update', 'patient_histories');
    const r = await measuresRepository(this.d.db).find(p.id, id);
    if (!r || !r.riskFlagged) throw notFound();
    const row = r.riskReviewedAt
      ? r
      : await measuresRepository(this.d.db).update(r.id, { riskReviewedAt: this.now(), riskReviewedBy: c.userId });
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  /** The completed administrations, for the patient's export (the export writes its own access-log line). */
  async forExport(c: Caller, patientId: string): Promise<MeasureAdministration[]> {
    const p = await this.d.patients.accessible(c, patientId, 'read', 'patient_histories');
    const rows = await measuresRepository(this.d.db).completedOf(p.id);
    return this.present(p.workspaceId, rows);
  }

  // The patient's side: no account, the token is the whole credential.

  async publicView(token: string): Promise<PublicMeasure> {
    const r = await this.resolve(this.d.db, token);
    return {
      measure: r.measure,
      workspaceName: (await this.d.workspaces.nameOf(r.workspaceId)) ?? '',
      expiresAt: r.expiresAt!.toISOString(),
    };
  }

  /** All items required; scored at once; a risk answer mails the therapist in the same transaction. */
  async publicAnswer(token: string, answers: (number | null)[]): Promise<{ completed: true; crisisLine: boolean }> {
    const found = await this.resolve(this.d.db, token);
    const complete = this.complete(found.measure, answers);
    const wc = await this.d.cipher.forWorkspace(found.workspaceId);
    await this.d.db.transaction(async (tx) => {
      const r = (await measuresRepository(tx).lock(found.id))!;
      this.assertOpen(r);
      const now = this.now();
      const done = await measuresRepository(tx).update(r.id, {
        status: 'completed',
        completedAt: now,
        resultEnc: sealResult(wc, r.id, complete.result(r.measure)),
        riskFlagged: complete.risk,
      });
      if (complete.risk) {
        const p = (await this.d.patients.profilesOf(r.workspaceId, [r.patientId], tx)).get(r.patientId);
        if (p) await this.mailRisk(tx, done, { id: r.patientId, name: p.name, therapistId: p.therapistId }, null);
      }
      await this.d.patients.touch(r.patientId, tx);
    });
    return { completed: true, crisisLine: complete.risk };
  }

  /**
   * The reminder (hourly sweep): a link unanswered MEASURE_REMINDER_DAYS after sending is mailed
   * once more; claimed once per administration, so a retried sweep mails nothing twice.
   */
  async remindDue(limit = 100): Promise<number> {
    const now = this.now();
    const due = await measuresRepository(this.d.db).reminderCandidates(new Date(now.getTime() - MEASURE_REMINDER_DAYS * DAY), now, limit);
    let sent = 0;
    for (const r of due) {
      await this.d.db.transaction(async (tx) => {
        if (!(await this.d.jobs.claim(tx, `measure-reminder:${r.id}`))) return;
        const contact = await this.d.patients.contactOf(r.workspaceId, r.patientId, tx);
        if (contact?.email) await this.mailLink(tx, r, contact, measureOf(r.measure), 1);
        await measuresRepository(tx).update(r.id, { remindedAt: now });
        sent++;
      });
    }
    return sent;
  }

  expireDue = (limit = 500) => measuresRepository(this.d.db).expire(this.now(), limit);

  private complete(key: MeasureKey, answers: (number | null)[]) {
    const m = measureOf(key);
    const problems = answerProblems(m, answers);
    if (problems.length) throw new AppError('measure_incomplete', problems);
    const values = answers as number[];
    const score = scoreMeasure(m, values);
    return {
      risk: score.risk,
      result: (measure: MeasureKey): StoredResult => ({
        measure,
        answers: values,
        nums: Object.fromEntries(score.scales.map((s) => [s.key, s.num])),
      }),
    };
  }

  private assertOpen(r: AdministrationRow) {
    if (r.status === 'completed') throw new AppError('measure_already_answered');
    if (r.status === 'cancelled') throw new AppError('measure_link_invalid');
    if (statusAt(r, this.now()) === 'expired') throw new AppError('measure_link_expired');
  }

  /** The administration a token opens, still open; unknown, cancelled, used and expired each say so. */
  private async resolve(db: DbOrTx, token: string): Promise<AdministrationRow> {
    const r = await measuresRepository(db).byTokenHash(this.tokens.hashOf(token));
    if (!r || r.mode !== 'link') throw new AppError('measure_link_invalid');
    this.assertOpen(r);
    return r;
  }

  private async mailLink(
    tx: DbOrTx,
    r: AdministrationRow,
    to: { firstName: string; email: string | null },
    m: ReturnType<typeof measureOf>,
    n: number,
  ) {
    if (!to.email) return;
    const brand = await this.d.workspaces.brandOf(r.workspaceId, tx);
    const mail = measureRequestMail(
      to.email,
      to.firstName,
      m,
      this.linkOf(r.id),
      { name: brand.name, logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null },
      n > 0,
    );
    await this.d.mailer.send(mail, { tx, key: `measure-link:${r.id}:${n}`, purpose: 'measure-link', workspaceId: r.workspaceId });
  }

  /** To the patient's therapist (else whoever sent it), unless they are the one who entered the answer. */
  private async mailRisk(
    tx: DbOrTx,
    r: AdministrationRow,
    p: { id: string; name: string; therapistId: string | null },
    actorId: string | null,
  ) {
    const to = p.therapistId ?? r.therapistId;
    if (!to || to === actorId) return;
    const user = await this.d.users.findById(to, tx);
    if (!user) return;
    const brand = await this.d.workspaces.brandOf(r.workspaceId, tx);
    const mail = riskFlagMail(user.email, user.firstName, measureOf(r.measure), p.name, `${this.d.publicUrl}/patients/${p.id}/measures`, {
      name: brand.name,
      logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null,
    });
    await this.d.mailer.send(mail, { tx, key: `measure-risk:${r.id}`, purpose: 'measure-risk', workspaceId: r.workspaceId });
  }

  private async present(workspaceId: string, rows: AdministrationRow[]): Promise<MeasureAdministration[]> {
    const now = this.now();
    const [users, wc] = await Promise.all([
      this.d.users.findManyByIds(rows.map((r) => r.therapistId).filter((x): x is string => !!x)),
      rows.some((r) => r.resultEnc) ? this.d.cipher.forWorkspace(workspaceId) : (null as WorkspaceCipher | null),
    ]);
    const names = new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
    return rows.map((r) => {
      const m = measureOf(r.measure);
      const result = r.resultEnc && wc ? openResult(wc, r.id, r.resultEnc) : null;
      return {
        id: r.id,
        measure: r.measure,
        status: statusAt(r, now),
        mode: r.mode,
        therapist: r.therapistId ? { id: r.therapistId, name: names.get(r.therapistId) ?? 'Usuario eliminado' } : null,
        sentAt: r.sentAt.toISOString(),
        expiresAt: r.expiresAt?.toISOString() ?? null,
        completedAt: r.completedAt?.toISOString() ?? null,
        answers: result?.answers ?? null,
        scores: result
          ? m.scales.map((s) => {
              const num = result.nums[s.key]!;
              const band = bandOf(s, num);
              return {
                key: s.key,
                num,
                den: s.den,
                value: oneDecimal(num, s.den),
                band: band?.label ?? null,
                level: band?.level ?? null,
                clinical: isClinical(s, num),
              };
            })
          : null,
        risk: {
          flagged: r.riskFlagged,
          items: result ? m.riskItems.filter((n) => result.answers[n - 1]! > 0) : [],
          reviewedAt: r.riskReviewedAt?.toISOString() ?? null,
        },
      };
    });
  }
}
