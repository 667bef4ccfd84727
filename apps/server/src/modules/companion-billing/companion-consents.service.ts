import { companionErrorMessages } from '@divan/core';
import type { CompanionConsent, CompanionConsentStatus } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { ConsentSigningService } from '../consents/consent-signing.service';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';

type Deps = { accounts: PatientAccountsService; signing: ConsentSigningService; clock?: () => Date };
type Envelope = Awaited<ReturnType<ConsentSigningService['ofPatient']>>[number];
type SignerRow = Envelope['signers'][number];
type Found = Envelope & { mine: SignerRow };

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The account's signer of an envelope: the one mailed to the account's email (a parent's account on a child's file), else the patient's own. */
export function signerOf(signers: SignerRow[], email: string): SignerRow | null {
  return signers.find((s) => same(s.email, email)) ?? signers.find((s) => s.role === 'patient') ?? null;
}

/** Where the envelope stands for the account's signer (signers sign in turn, by position). */
export function statusOf(f: Found, now: Date): CompanionConsentStatus {
  if (f.envelope.state === 'revoked') return 'revoked';
  if (f.envelope.state === 'signed') return 'signed';
  if (f.mine.signedAt) return 'waiting';
  if (f.mine.expiresAt <= now) return 'expired';
  return f.signers.some((s) => s.position < f.mine.position && !s.signedAt) ? 'waiting' : 'to_sign';
}

/**
 * The consents of a connected file in the companion: those where the account is a signer. Signing
 * itself is the consents module's public flow (`/consents/sign/<token>`): the companion opens it with
 * the signer's own link, never signs by itself.
 */
export class CompanionConsentsService {
  constructor(private readonly d: Deps) {}

  private now = () => this.d.clock?.() ?? new Date();

  async list(accountId: string, patientFileId: string): Promise<{ items: CompanionConsent[] }> {
    const found = await this.mine(accountId, patientFileId);
    const now = this.now();
    return { items: found.map((f) => this.present(f, now)) };
  }

  /** The signing page of an envelope waiting for the account's signature, its turn come. */
  async signLink(accountId: string, patientFileId: string, envelopeId: string): Promise<{ url: string }> {
    const f = await this.one(accountId, patientFileId, envelopeId);
    const status = statusOf(f, this.now());
    // Back to the companion once signed (the signing page accepts only this shape of `volver`).
    if (status === 'to_sign')
      return { url: `${this.d.signing.linkOf(f.mine.id)}?volver=${encodeURIComponent(`/p/${patientFileId}/consentimientos`)}` };
    if (status === 'signed' || f.mine.signedAt) throw new AppError('consent_already_signed');
    if (status === 'expired') throw new AppError('companion_consent_expired');
    if (status === 'waiting') throw new AppError('companion_consent_not_your_turn');
    throw new AppError('companion_consent_not_signable');
  }

  /** The sealed PDF of a completed envelope. */
  async pdf(accountId: string, patientFileId: string, envelopeId: string): Promise<{ name: string; pdf: Buffer }> {
    const { envelope: e } = await this.one(accountId, patientFileId, envelopeId);
    if (e.state !== 'signed') throw new AppError('companion_consent_not_completed');
    if (!e.documentId) throw new AppError('companion_consent_not_completed', undefined, companionErrorMessages.signedPdfPending);
    const pdf = await this.d.signing.storedPdf(e);
    if (!pdf) throw new AppError('consent_not_found', undefined, companionErrorMessages.signedPdfGone);
    return { name: `${e.documentTitle}.pdf`, pdf };
  }

  private present(f: Found, now: Date): CompanionConsent {
    const e = f.envelope;
    return {
      id: e.id,
      title: e.documentTitle,
      status: statusOf(f, now),
      sentAt: e.sentAt.toISOString(),
      signedAt: f.mine.signedAt?.toISOString() ?? null,
      completedAt: e.completedAt?.toISOString() ?? null,
      expiresAt: f.mine.expiresAt.toISOString(),
      canDownload: e.state === 'signed' && !!e.documentId,
    };
  }

  private async one(accountId: string, patientFileId: string, envelopeId: string): Promise<Found> {
    const [f] = await this.mine(accountId, patientFileId, envelopeId);
    if (!f) throw new AppError('consent_not_found');
    return f;
  }

  /** The file's envelopes where the account signs (on a live connected file only). */
  private async mine(accountId: string, patientFileId: string, envelopeId?: string): Promise<Found[]> {
    const file = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const [{ email }, rows] = await Promise.all([
      this.d.accounts.me(accountId),
      this.d.signing.ofPatient(file.workspaceId, file.patientFileId, envelopeId),
    ]);
    return rows.flatMap(({ envelope, signers }) => {
      const mine = signerOf(signers, email);
      return mine ? [{ envelope, signers, mine }] : [];
    });
  }
}
