import {
  ageOn,
  CONSENT_SELF_SIGNING_AGE,
  CONSENT_SIGNER_ROLE_LABELS,
  type ConsentDataField,
  consentErrorMessages,
  DEFAULT_TIME_ZONE,
  type PublicConsent,
  type SignConsentInput,
  signingProblems,
  todayIn,
} from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import type { QueueDefinition } from '../../platform/jobs/jobs';
import { AppError } from '../../platform/errors';
import { shownDocument, signingTokens, type SigningTokens } from './consent-document';
import { consentEnvelopesRepository } from './consent-envelopes.repository';
import type { EnvelopeRow, SignerRow } from './consent-envelopes.tables';
import { signRequestMail } from './consent-envelopes.mails';
import { readSealedPdf, sealEnvelope } from './consent-completion';
import { sealSignerSecrets } from './consent-signer-secrets';
import type { RequestMeta } from '../../platform/http/request-meta';
import type { SigningDeps } from './signing-deps';

const invalidLink = () => new AppError('consent_not_found', undefined, consentErrorMessages.signingLinkInvalid);
const revoked = () => new AppError('consent_not_found', undefined, consentErrorMessages.revoked);
/** The signers before `signer` who have not signed yet: each signs in turn, by position (a second guardian after the first). */
const aheadOf = (signers: SignerRow[], signer: SignerRow) => signers.filter((s) => s.position < signer.position && !s.signedAt);
const notYourTurn = (ahead: SignerRow[]) =>
  new AppError(
    'consent_not_your_turn',
    undefined,
    consentErrorMessages.notYourTurn(ahead.map((s) => `${s.name} (${CONSENT_SIGNER_ROLE_LABELS[s.role].toLowerCase()})`)),
  );
const DAY = 86_400_000;
const SEAL_QUEUE = 'consents.seal';
type SealJob = { envelopeId: string };
/** The job seals an envelope left signed without its PDF this long after its last signature. */
const SEAL_SAFETY_NET_MS = 60_000;

/**
 * The signing side, without an account (spec §2 `consents/sign/{token}`): a token opens exactly one
 * signer of one envelope. Every step goes to the evidence trail with the time, IP, user agent and the
 * SHA-256 of the document shown; the last signature seals the PDF into the patient's documents.
 */
export class ConsentSigningService {
  readonly tokens: SigningTokens;
  constructor(private readonly d: SigningDeps) {
    this.tokens = signingTokens(d.appSecret);
  }

  /** The seal's queue, a safety net behind the last signature (defined by the consents module's entry). */
  readonly queue: QueueDefinition<SealJob> = {
    name: SEAL_QUEUE,
    work: (j) => this.sealFromJob(j.envelopeId),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  };

  private now = () => this.d.clock?.() ?? new Date();
  urlFor = (token: string) => `${this.d.publicUrl}/consents/sign/${token}`;

  /** The envelope's patient as the patients module has them now: name and birthdate. */
  async patientOf(e: EnvelopeRow, tx: DbOrTx = this.d.db): Promise<{ name: string; birthdate: string | null }> {
    return (await this.d.patients.profilesOf(e.workspaceId, [e.patientId], tx)).get(e.patientId) ?? { name: '', birthdate: null };
  }

  /** Mails a signer their link (in `tx`: a rolled-back sending mails nothing). */
  async mailLink(tx: DbOrTx, e: EnvelopeRow, s: SignerRow, doc: { patientName: string; forMinor: boolean }, now: Date, reminder = 0) {
    const brand = await this.d.workspaces.brandOf(e.workspaceId, tx);
    const mail = signRequestMail(
      s.email,
      s.name,
      { title: e.documentTitle, ...doc },
      this.urlFor(this.tokens.tokenFor(s.id)),
      { name: brand.name, logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null },
      reminder > 0,
    );
    await this.d.mailer.send(mail, { tx, key: `consent-link:${s.id}:${reminder}`, purpose: 'consent-sign', workspaceId: e.workspaceId });
    await consentEnvelopesRepository(tx).updateSigner(s.id, { mailedAt: now });
  }

  /** The document for the signing page; the first view of each signer is the `opened` event. */
  async view(token: string, meta: RequestMeta): Promise<PublicConsent> {
    const now = this.now();
    const { envelope, signer } = await this.resolve(this.d.db, token, now);
    if (envelope.state === 'revoked') throw revoked();
    const version = await this.d.templates.frozen(envelope.workspaceId, envelope.templateId, envelope.templateVersion);
    const shown = shownDocument(version.content, envelope.variables, envelope.therapistSignature ?? null);
    if (!signer.openedAt && !signer.signedAt) {
      await this.d.db.transaction(async (tx) => {
        const repo = consentEnvelopesRepository(tx);
        if (!(await repo.markOpened(signer.id, now))) return;
        const e = (await repo.lock(envelope.id))!;
        if (e.state === 'sent') await repo.update(e.id, { state: 'opened' });
        await repo.addEvent({
          workspaceId: e.workspaceId,
          envelopeId: e.id,
          type: 'opened',
          signerRole: signer.role,
          actor: signer.name,
          at: now,
          ...meta,
          documentSha256: e.documentSha256,
        });
      });
    }
    const repo = consentEnvelopesRepository(this.d.db);
    const [current, all, patient, therapist, workspaceName] = await Promise.all([
      repo.byId(envelope.id),
      repo.signers([envelope.id]),
      this.patientOf(envelope),
      envelope.therapistId ? this.d.users.findById(envelope.therapistId) : null,
      this.d.workspaces.nameOf(envelope.workspaceId),
    ]);
    const age = patient.birthdate ? ageOn(patient.birthdate, todayIn(DEFAULT_TIME_ZONE, now)) : null;
    const waitingFor = signer.signedAt ? [] : aheadOf(all, signer).map((s) => ({ role: s.role, name: s.name }));
    return {
      documentTitle: shown.documentTitle,
      workspaceName: workspaceName ?? '',
      sections: shown.sections,
      signer: {
        role: signer.role,
        name: signer.name,
        data: signer.asked,
        prefill: signer.signedAt ? {} : await this.prefillOf(envelope, signer),
        signedAt: signer.signedAt?.toISOString() ?? null,
      },
      waitingFor,
      patientSignsAsMinor: signer.role === 'patient' && age !== null && age >= CONSENT_SELF_SIGNING_AGE && age < 18,
      others: all.filter((s) => s.id !== signer.id).map((s) => ({ role: s.role, name: s.name, signed: !!s.signedAt })),
      therapistSignature:
        shown.therapistSignature && therapist
          ? { image: shown.therapistSignature.image, name: [therapist.firstName, therapist.lastName].filter(Boolean).join(' ') }
          : null,
      state: current!.state,
      expiresAt: signer.expiresAt.toISOString(),
      documentSha256: envelope.documentSha256,
    };
  }

  /** One signer's signature; the last one completes the envelope (sealed PDF, stored, copies mailed). */
  async sign(
    token: string,
    body: SignConsentInput,
    meta: RequestMeta,
  ): Promise<{ state: EnvelopeRow['state']; signedAt: string; completed: boolean }> {
    const now = this.now();
    const found = await this.resolve(this.d.db, token, now);
    const version = await this.d.templates.frozen(found.envelope.workspaceId, found.envelope.templateId, found.envelope.templateVersion);
    const shown = shownDocument(version.content, found.envelope.variables, found.envelope.therapistSignature ?? null);
    // The workspace's data key, loaded now: the sealed PDF is encrypted inside the transaction (PGlite has one connection).
    await this.d.cipher.forWorkspace(found.envelope.workspaceId);
    const result = await this.d.db.transaction(async (tx) => {
      const repo = consentEnvelopesRepository(tx);
      const e = (await repo.lock(found.envelope.id))!;
      const signers = await repo.signers([e.id]);
      const signer = signers.find((s) => s.id === found.signer.id)!;
      if (e.state === 'revoked') throw revoked();
      if (signer.signedAt || e.state === 'signed') throw new AppError('consent_already_signed');
      // Read under the envelope's lock: a first guardian signing at this moment is either in or not yet.
      const ahead = aheadOf(signers, signer);
      if (ahead.length) throw notYourTurn(ahead);
      const problems = signingProblems(shown, signer.role, signer.asked, body);
      if (problems.length) {
        const first = problems[0]!;
        throw new AppError(
          first.code,
          problems.filter((p) => p.code === first.code).map(({ path, message }) => ({ path, message })),
          first.message,
        );
      }
      const data = Object.fromEntries(signer.asked.map((f) => [f, body.data[f]!.trim()]));
      const signature =
        body.signature.kind === 'drawn'
          ? { kind: 'drawn' as const, png: body.signature.png }
          : { kind: 'typed' as const, name: body.signature.name.trim() };
      const secrets = await sealSignerSecrets(this.d.cipher, e.workspaceId, signer.id, { data, signature });
      await repo.updateSigner(signer.id, {
        signedAt: now,
        openedAt: signer.openedAt ?? now,
        ...secrets,
        checkboxes: [...new Set(body.checkboxes)].sort((a, b) => a - b),
      });
      await repo.addEvent({
        workspaceId: e.workspaceId,
        envelopeId: e.id,
        type: 'signed',
        signerRole: signer.role,
        actor: data.fullName ?? signer.name,
        at: now,
        ...meta,
        documentSha256: e.documentSha256,
        details: { signature: signature.kind, checkboxes: body.checkboxes },
      });
      const pending = signers.filter((s) => s.id !== signer.id && !s.signedAt);
      if (pending.length === 0) {
        // Every signature is in: signed now; the sealed PDF right after this commits, and from a job
        // a minute later should this process stop before it is stored.
        await repo.update(e.id, { state: 'signed', completedAt: now });
        await this.d.jobs.send<SealJob>(
          SEAL_QUEUE,
          { envelopeId: e.id },
          { tx, key: e.id, startAfter: new Date(Date.now() + SEAL_SAFETY_NET_MS) },
        );
        return { state: 'signed' as const, signedAt: now.toISOString(), completed: true };
      }
      // Each in turn: the next signer's link goes once this one has signed.
      const next = pending[0]!;
      if (!next.mailedAt) {
        const patientName = (await this.patientOf(e, tx)).name;
        await this.mailLink(tx, e, next, { patientName, forMinor: next.role !== 'patient' }, now);
        await repo.addEvent({
          workspaceId: e.workspaceId,
          envelopeId: e.id,
          type: 'sent',
          signerRole: next.role,
          actor: next.name,
          at: now,
          ip: null,
          userAgent: null,
          documentSha256: e.documentSha256,
          details: { to: next.email, after: signer.role },
        });
      }
      if (e.state === 'sent') await repo.update(e.id, { state: 'opened' });
      return { state: e.state === 'sent' ? ('opened' as const) : e.state, signedAt: now.toISOString(), completed: false };
    });
    if (result.completed) {
      // The signature is recorded whatever happens here: a failure is retried by the job.
      await sealEnvelope(this.d, found.envelope.id, shown, this.now()).catch((err: unknown) =>
        this.d.log?.error({ err, envelopeId: found.envelope.id }, 'consent not sealed yet; its job will retry'),
      );
    }
    return result;
  }

  /** The job's side of sealing (after a crash, or a failure right after the last signature). */
  private async sealFromJob(envelopeId: string) {
    const e = await consentEnvelopesRepository(this.d.db).byId(envelopeId);
    if (!e || e.state !== 'signed' || e.documentId) return;
    const version = await this.d.templates.frozen(e.workspaceId, e.templateId, e.templateVersion);
    await this.d.cipher.forWorkspace(e.workspaceId);
    await sealEnvelope(this.d, e.id, shownDocument(version.content, e.variables, e.therapistSignature ?? null), this.now());
  }

  storedPdf = (e: EnvelopeRow) => readSealedPdf(this.d, e);

  /**
   * What the signer's fields start with, of the data asked: the name and email the consent was sent
   * to; for the patient, also the phone, ID number and address their file holds. Still editable.
   */
  private async prefillOf(e: EnvelopeRow, s: SignerRow): Promise<Partial<Record<ConsentDataField, string>>> {
    const file =
      s.role === 'patient' && s.asked.some((f) => f === 'phone' || f === 'idNumber' || f === 'address')
        ? await this.d.patients.signingDataOf(e.workspaceId, e.patientId)
        : null;
    const known: Partial<Record<ConsentDataField, string | null>> = {
      fullName: s.name,
      email: s.email,
      phone: file?.phone,
      idNumber: file?.idNumber,
      address: file?.address,
    };
    return Object.fromEntries(s.asked.flatMap((f) => (known[f] ? [[f, known[f]]] : [])));
  }

  /** A patient's envelopes with their signers in signing order, newest first (the companion: no member, no token). */
  async ofPatient(workspaceId: string, patientId: string, envelopeId?: string): Promise<{ envelope: EnvelopeRow; signers: SignerRow[] }[]> {
    const repo = consentEnvelopesRepository(this.d.db);
    const envelopes = (await repo.ofPatient(workspaceId, patientId)).filter((e) => !envelopeId || e.id === envelopeId);
    const signers = await repo.signers(envelopes.map((e) => e.id));
    return envelopes.map((envelope) => ({ envelope, signers: signers.filter((s) => s.envelopeId === envelope.id) }));
  }

  /** A signer's signing page: the very link their mail carries (the token is derived from the signer). */
  linkOf = (signerId: string) => this.urlFor(this.tokens.tokenFor(signerId));

  /**
   * Reminders (hourly sweep): unsigned signers whose link was mailed are mailed again 3 and 7 days
   * after sending; each reminder claimed once per signer (jobs.claim), so a retried sweep mails nothing twice.
   */
  async remindDue(limit = 100): Promise<number> {
    const now = this.now();
    const candidates = await consentEnvelopesRepository(this.d.db).reminderCandidates(new Date(now.getTime() - 3 * DAY), now, limit);
    let sent = 0;
    for (const { signer, envelope } of candidates) {
      const days = Math.floor((now.getTime() - envelope.sentAt.getTime()) / DAY);
      const n = days >= 7 ? 2 : 1;
      await this.d.db.transaction(async (tx) => {
        if (!(await this.d.jobs.claim(tx, `consent-reminder:${signer.id}:${n}`))) return;
        const repo = consentEnvelopesRepository(tx);
        const patientName = (await this.patientOf(envelope, tx)).name;
        await this.mailLink(tx, envelope, signer, { patientName, forMinor: signer.role !== 'patient' }, now, n);
        await repo.addEvent({
          workspaceId: envelope.workspaceId,
          envelopeId: envelope.id,
          type: 'reminded',
          signerRole: signer.role,
          actor: signer.name,
          at: now,
          documentSha256: envelope.documentSha256,
          details: { to: signer.email, reminder: n, days },
        });
        sent++;
      });
    }
    return sent;
  }

  /** The signer a token opens, and its envelope; unknown and expired look the same. */
  private async resolve(db: DbOrTx, token: string, now: Date): Promise<{ envelope: EnvelopeRow; signer: SignerRow }> {
    const repo = consentEnvelopesRepository(db);
    const signer = await repo.signerByTokenHash(this.tokens.hashOf(token));
    if (!signer) throw invalidLink();
    const envelope = await repo.byId(signer.envelopeId);
    if (!envelope) throw invalidLink();
    if (signer.expiresAt <= now && !signer.signedAt && envelope.state !== 'signed') throw invalidLink();
    return { envelope, signer };
  }
}
