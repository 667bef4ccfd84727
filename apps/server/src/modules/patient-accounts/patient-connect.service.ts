import type { DeviceInfo, PatientConnectStatus, PatientFile } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { randomToken } from '../../platform/auth/tokens';
import type { SessionContext } from '../auth/auth.service';
import type { Caller } from '../../platform/auth/caller';
import type { UsersService } from '../users/users.service';
import { patientAccountsRepository, type PatientConnectionRow } from './patient-accounts.repository';
import type { PatientAccountsDeps, PatientAccountsService } from './patient-accounts.service';
import { connectInvitationMail } from './patient-accounts.mails';

/** How long a connect link works. */
export const CONNECT_INVITE_TTL_MS = 14 * 86_400_000;

const invitationGone = () => new AppError('patient_connect_invitation_not_found');

/** `maria.lopez@correo.es` → `m•••@correo.es`: enough to recognise, not to learn (not even its length). */
export function maskEmail(email: string) {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

/**
 * Connecting a patient's file to the patient's own account (spec §2 "connect", issue 15). The therapist
 * invites by email from the file; the patient accepts signed in (the invited email must be the
 * account's) or from the link alone, with a code mailed to the invited email that makes the account if
 * there is none. Disconnecting from the therapist's side deletes the connection (or the invitation).
 */
export class PatientConnectService {
  constructor(private readonly d: PatientAccountsDeps & { users: UsersService; accounts: PatientAccountsService }) {}

  async status(c: Caller, patientId: string): Promise<PatientConnectStatus> {
    const p = await this.d.patients.accessible(c, patientId);
    return statusOf(await patientAccountsRepository(this.d.db).findConnection(p.id));
  }

  /** Mails a connect link to `email`; a new one replaces the previous invitation. */
  async invite(c: Caller, patientId: string, email: string): Promise<PatientConnectStatus> {
    const p = await this.d.patients.accessible(c, patientId, 'update');
    const workspaceName = (await this.d.workspaces.nameOf(p.workspaceId)) ?? '';
    const therapistName = await this.nameOf(c.userId);
    const token = randomToken();
    const row = await this.d.db.transaction(async (tx) => {
      const repo = patientAccountsRepository(tx);
      if ((await repo.lockConnection(p.id))?.accountId) throw new AppError('patient_already_connected');
      const row = await repo.upsertInvitation({
        patientId: p.id,
        workspaceId: p.workspaceId,
        email,
        tokenHash: this.d.hash(token),
        invitedBy: c.userId,
        inviteExpiresAt: new Date(Date.now() + CONNECT_INVITE_TTL_MS),
      });
      if (!row) throw new AppError('patient_already_connected');
      const url = `${this.d.publicUrl}/p/connect/${token}`;
      await this.d.mailer.send(connectInvitationMail(email, { firstName: p.firstName, therapistName, workspaceName, url }), {
        tx,
        purpose: 'patient_connect',
      });
      await this.d.audit.record(tx, {
        workspaceId: p.workspaceId,
        actorId: c.userId,
        action: 'patient.connect_invited',
        target: p.id,
        details: { patientId: p.id, patientName: [p.firstName, p.lastName].filter(Boolean).join(' '), email },
      });
      return row;
    });
    return statusOf(row);
  }

  /** The therapist's side: the file is no longer connected (or the invitation no longer works). */
  async disconnect(c: Caller, patientId: string): Promise<void> {
    const p = await this.d.patients.accessible(c, patientId, 'update');
    await this.d.db.transaction(async (tx) => {
      const removed = await patientAccountsRepository(tx).remove(p.id);
      if (!removed?.accountId) return;
      await this.d.audit.record(tx, {
        workspaceId: p.workspaceId,
        actorId: c.userId,
        action: 'patient.disconnected',
        target: p.id,
        details: { patientId: p.id, patientName: [p.firstName, p.lastName].filter(Boolean).join(' '), by: 'therapist' },
      });
    });
  }

  /** What a connect link is, before the patient proves the email. */
  async invitation(token: string) {
    const inv = await this.live(token);
    return {
      workspaceName: (await this.d.workspaces.nameOf(inv.workspaceId)) ?? '',
      therapistName: inv.invitedBy ? await this.nameOf(inv.invitedBy) : null,
      maskedEmail: maskEmail(inv.email),
    };
  }

  /** A signed-in patient accepts: the invitation must have been sent to the account's email. */
  async connect(accountId: string, token: string): Promise<{ file: PatientFile }> {
    const inv = await this.live(token);
    const account = await patientAccountsRepository(this.d.db).findAccount(accountId);
    if (!account) throw new AppError('invalid_access_token');
    if (account.email !== inv.email) throw new AppError('patient_connect_email_mismatch');
    const patientName = await this.patientNameOf(inv);
    await this.d.db.transaction((tx) => this.accept(tx, inv, token, accountId, patientName));
    return { file: await this.fileOf(accountId, inv.patientId) };
  }

  /** From the link alone: mails a code to the invited email, making the account if there is none. */
  async mailCode(token: string): Promise<{ challenge: string; expiresAt: string }> {
    const inv = await this.live(token);
    await this.d.emailLimiter.hit(inv.email);
    const card = await this.d.patients.connectCardOf(inv.workspaceId, inv.patientId);
    if (!card) throw invitationGone();
    const issued = await this.d.db.transaction(async (tx) => {
      const account = await patientAccountsRepository(tx).ensureAccount(inv.email, card.firstName);
      return this.d.accounts.mailCode(tx, account);
    });
    return { challenge: issued.id, expiresAt: issued.expiresAt.toISOString() };
  }

  /** The code from the link's mail: the file is connected and the patient signed in, at once. */
  async connectWithCode(token: string, challenge: string, code: string, device: DeviceInfo, ctx: SessionContext) {
    const inv = await this.live(token);
    const found = await this.d.auth.codes.check('patients', challenge, code);
    const account = await patientAccountsRepository(this.d.db).findAccount(found.subjectId);
    // A code mailed for another account (its own sign-in) does not accept this invitation.
    if (account?.email !== inv.email) throw new AppError('patient_connect_email_mismatch');
    const patientName = await this.patientNameOf(inv);
    const tokens = await this.d.db.transaction(async (tx) => {
      await this.d.auth.codes.consume(tx, found.id);
      await this.accept(tx, inv, token, account.id, patientName);
      return this.d.accounts.signIn(tx, account.id, device, ctx);
    });
    return { ...tokens, file: await this.fileOf(account.id, inv.patientId) };
  }

  /** Read before the transaction: inside it only `tx` is used (PGlite runs one query at a time). */
  private async patientNameOf(inv: PatientConnectionRow) {
    const card = await this.d.patients.connectCardOf(inv.workspaceId, inv.patientId);
    if (!card) throw invitationGone();
    return card.patientName;
  }

  private async accept(tx: DbOrTx, inv: PatientConnectionRow, token: string, accountId: string, patientName: string) {
    if (!(await patientAccountsRepository(tx).connect(inv.patientId, this.d.hash(token), accountId))) throw invitationGone();
    await this.d.audit.record(tx, {
      workspaceId: inv.workspaceId,
      actorId: null,
      action: 'patient.connected',
      target: inv.patientId,
      details: { patientId: inv.patientId, patientName, email: inv.email },
    });
  }

  private async fileOf(accountId: string, patientId: string) {
    const file = await this.d.accounts.present(await this.d.accounts.fileOf(accountId, patientId));
    if (!file) throw invitationGone();
    return file;
  }

  /** The invitation of a link, unused and unexpired; otherwise "connect invitation not found". */
  private async live(token: string): Promise<PatientConnectionRow> {
    const inv = await patientAccountsRepository(this.d.db).findInvitation(this.d.hash(token));
    if (!inv || inv.inviteExpiresAt.getTime() <= Date.now()) throw invitationGone();
    return inv;
  }

  private async nameOf(userId: string) {
    const [u] = await this.d.users.findManyByIds([userId]);
    return u ? [u.firstName, u.lastName].filter(Boolean).join(' ') : null;
  }
}

function statusOf(row: PatientConnectionRow | undefined): PatientConnectStatus {
  if (!row) return { status: 'not_invited' };
  if (row.accountId && row.connectedAt) return { status: 'connected', email: row.email, connectedAt: row.connectedAt.toISOString() };
  return { status: 'invited', email: row.email, invitedAt: row.invitedAt.toISOString() };
}
