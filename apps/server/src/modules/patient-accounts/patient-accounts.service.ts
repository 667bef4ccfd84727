import { randomUUID } from 'node:crypto';
import { LOGIN_CODE_TTL_MS, type DeviceInfo, type PatientAuthTokens, type PatientFile } from '@divan/core';
import type { FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail/mailer';
import type { RateLimiter } from '../../platform/http/rate-limiter';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { SessionContext } from '../auth/auth.service';
import type { PatientsService } from '../patients/patients.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { patientAccountsRepository, type PatientAccountRow } from './patient-accounts.repository';
import { patientLoginCodeMail } from './patient-accounts.mails';

export type PatientAccountsDeps = {
  db: Db;
  auth: AuthService;
  mailer: Mailer;
  patients: PatientsService;
  workspaces: WorkspacesService;
  audit: AuditService;
  emailLimiter: RateLimiter;
  /** Keyed hash of a link token (the platform's token service). */
  hash: (value: string) => string;
  publicUrl: string;
};

/** A file connected to the signed-in patient's account: what every `/api/v1/patient/...` route is scoped by. */
export type ConnectedFile = { patientFileId: string; workspaceId: string; connectedAt: Date };

/**
 * The patients' realm (issue 15): sign-in by email and a mailed code on the therapists' machinery (code
 * challenges and device sessions of the auth service, realm `patients` in the token), and the files
 * connected to the account. Other modules (the companion, the chat) scope a patient's requests through
 * `scope` and `fileOf`, never through these tables.
 */
export class PatientAccountsService {
  constructor(private readonly d: PatientAccountsDeps) {}

  /**
   * Mails a code when the email has an account. The answer is the same either way (a challenge id that
   * never signs in for an unknown email), so nobody learns who has an account.
   */
  async startLogin(email: string): Promise<{ challenge: string; expiresAt: string }> {
    await this.d.emailLimiter.hit(email);
    const account = await patientAccountsRepository(this.d.db).findAccountByEmail(email);
    if (!account) return { challenge: randomUUID(), expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS).toISOString() };
    const issued = await this.d.db.transaction((tx) => this.mailCode(tx, account));
    return { challenge: issued.id, expiresAt: issued.expiresAt.toISOString() };
  }

  /** A code challenge for the account, its mail in the same transaction. */
  async mailCode(tx: DbOrTx, account: PatientAccountRow) {
    const issued = await this.d.auth.codes.issue(tx, { realm: 'patients', id: account.id });
    await this.d.mailer.send(patientLoginCodeMail(account.email, account.firstName, issued.code), {
      tx,
      purpose: 'patient_login',
      key: `patient_login:${issued.id}`,
    });
    return issued;
  }

  async login(challenge: string, code: string, device: DeviceInfo, ctx: SessionContext): Promise<PatientAuthTokens> {
    const found = await this.d.auth.codes.check('patients', challenge, code);
    return this.d.db.transaction(async (tx) => {
      await this.d.auth.codes.consume(tx, found.id);
      return this.signIn(tx, found.subjectId, device, ctx);
    });
  }

  /** A new device session of the account (inside the transaction that proved the code). */
  async signIn(tx: DbOrTx, accountId: string, device: DeviceInfo, ctx: SessionContext): Promise<PatientAuthTokens> {
    const account = await patientAccountsRepository(tx).findAccount(accountId);
    if (!account) throw new AppError('challenge_not_found');
    const { accessToken, refreshToken } = await this.d.auth.patientSessions.open(tx, account.id, device, ctx);
    return {
      accountId: account.id,
      accessToken,
      refreshToken,
      profile: { id: account.id, email: account.email, firstName: account.firstName },
    };
  }

  /** The signed-in account as the companion shows it (`GET /api/v1/patient/me`). */
  async me(accountId: string): Promise<{ id: string; email: string; firstName: string }> {
    const account = await patientAccountsRepository(this.d.db).findAccount(accountId);
    if (!account) throw new AppError('invalid_access_token');
    return { id: account.id, email: account.email, firstName: account.firstName };
  }

  refresh = (refreshToken: string, device: DeviceInfo, ctx: SessionContext) =>
    this.d.auth.patientSessions.refresh(refreshToken, device, ctx);
  logout = (refreshToken: string) => this.d.auth.patientSessions.logout(refreshToken);

  /** The files connected to the account. */
  async scope(accountId: string): Promise<ConnectedFile[]> {
    const rows = await patientAccountsRepository(this.d.db).connectedTo(accountId);
    return rows.map((r) => ({ patientFileId: r.patientId, workspaceId: r.workspaceId, connectedAt: r.connectedAt }));
  }

  /** One of the account's connected files; 404 for any other, the same as for a file that does not exist. */
  async fileOf(accountId: string, patientFileId: string): Promise<ConnectedFile> {
    const file = (await this.scope(accountId)).find((f) => f.patientFileId === patientFileId);
    if (!file) throw new AppError('patient_file_not_found');
    return file;
  }

  /**
   * A connected file the patient still reaches (every `/api/v1/patient/files/:id/...` route): also
   * checked through the patients service, so a file blocked (deleted, kept for the legal period) or
   * erased answers 404 as any other.
   */
  async liveFileOf(accountId: string, patientFileId: string): Promise<ConnectedFile> {
    const file = await this.fileOf(accountId, patientFileId);
    if (!(await this.d.patients.contactOf(file.workspaceId, file.patientFileId))) throw new AppError('patient_file_not_found');
    return file;
  }

  /**
   * What the chat needs of the accounts (its `PatientLink`, given at wiring): which connected file is
   * whose, in both directions, without reading these tables. A blocked file is no longer the patient's.
   */
  readonly chatLink = {
    fileOf: async (accountId: string, patientFileId: string) => {
      const file = await this.liveFileOf(accountId, patientFileId).catch((e: unknown) => {
        if (e instanceof AppError && e.code === 'patient_file_not_found') return null;
        throw e;
      });
      return file ? { workspaceId: file.workspaceId } : null;
    },
    accountsOf: (patientFileId: string) => patientAccountsRepository(this.d.db).accountsOf(patientFileId),
    filesOf: async (accountId: string) => (await this.scope(accountId)).map((f) => f.patientFileId),
  };

  /** The connected files as the patient sees them: the workspace, the therapist(s) and the patient's name. */
  async files(accountId: string): Promise<PatientFile[]> {
    const out: PatientFile[] = [];
    for (const f of await this.scope(accountId)) {
      const presented = await this.present(f);
      if (presented) out.push(presented);
    }
    return out;
  }

  /** A connected file as the patient sees it; null once the file is blocked or erased. */
  async present(f: ConnectedFile): Promise<PatientFile | null> {
    const card = await this.d.patients.connectCardOf(f.workspaceId, f.patientFileId);
    if (!card) return null;
    const workspaceName = (await this.d.workspaces.nameOf(f.workspaceId)) ?? '';
    return {
      patientFileId: f.patientFileId,
      workspaceId: f.workspaceId,
      workspaceName,
      therapistNames: card.therapistNames,
      patientName: card.patientName,
      connectedAt: f.connectedAt.toISOString(),
    };
  }

  /** The patient disconnects a file from their account; their therapist's workspace keeps the file. */
  async disconnect(accountId: string, patientFileId: string): Promise<void> {
    const file = await this.fileOf(accountId, patientFileId);
    const card = await this.d.patients.connectCardOf(file.workspaceId, file.patientFileId);
    await this.d.db.transaction(async (tx) => {
      if (!(await patientAccountsRepository(tx).remove(file.patientFileId, accountId))) throw new AppError('patient_file_not_found');
      await this.d.audit.record(tx, {
        workspaceId: file.workspaceId,
        actorId: null,
        action: 'patient.disconnected',
        target: file.patientFileId,
        details: { patientId: file.patientFileId, patientName: card?.patientName ?? '', by: 'patient' },
      });
    });
  }
}

/** The connected files of the patient signed in on this request (routes with access `patient`). */
export const patientScope = (service: PatientAccountsService, req: FastifyRequest) => service.scope(req.patient!.accountId);
