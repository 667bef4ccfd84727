import { sha256Hex, type ShownDocument } from './consent-document';
import { consentEnvelopesRepository } from './consent-envelopes.repository';
import type { EnvelopeRow } from './consent-envelopes.tables';
import { signedCopyMail } from './consent-envelopes.mails';
import { consentPdf } from './consent-pdf';
import { openSignerSecrets } from './consent-signer-secrets';
import type { SigningDeps } from './signing-deps';

/** The tag of the sealed PDFs among a patient's documents. */
export const CONSENT_DOCUMENT_TAG = 'Consentimiento';

const fullName = (u: { firstName: string; lastName: string | null }) => [u.firstName, u.lastName].filter(Boolean).join(' ');
/** A file name without characters a file system or a mail client would refuse. */
const fileNameOf = (title: string) =>
  `${
    title
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'Consentimiento'
  }.pdf`;

/**
 * Every signature is in (the envelope is `signed`): the PDF of the document as shown, the signers'
 * data, boxes and signatures and the evidence trail, sealed — built outside any transaction (a second
 * of CPU must not hold PGlite's one connection) — then, in one transaction with the envelope locked,
 * stored encrypted as one of the patient's documents, the `completed` event, and a copy mailed to each
 * signer and the therapist. Idempotent: an envelope that already has its document is left alone (the
 * sealing runs right after the last signature and again, as a safety net, from a job). Returns whether
 * this call stored it. Bytes written for a call that then finds the work done stay as an orphan file.
 */
export async function sealEnvelope(d: SigningDeps, envelopeId: string, shown: ShownDocument, now: Date): Promise<boolean> {
  const repo = consentEnvelopesRepository(d.db);
  const e = await repo.byId(envelopeId);
  if (!e || e.state !== 'signed' || e.documentId) return false;
  const [signers, events, therapist, brand, patient] = await Promise.all([
    repo.signers([e.id]),
    repo.events(e.id),
    e.therapistId ? d.users.findById(e.therapistId) : null,
    d.workspaces.brandOf(e.workspaceId),
    d.patients.profilesOf(e.workspaceId, [e.patientId]).then((m) => m.get(e.patientId) ?? { name: '', birthdate: null }),
  ]);
  // Each signer's data and signature, decrypted for the PDF.
  const opened = await Promise.all(signers.map(async (s) => ({ s, secrets: (await openSignerSecrets(d.cipher, e.workspaceId, s))! })));
  const completedAt = e.completedAt ?? now;
  const seal = d.seal();
  const cert = seal.certificateInfo();
  const pdf = await consentPdf({
    envelopeId: e.id,
    document: shown,
    documentSha256: e.documentSha256,
    workspaceName: brand.name,
    patientName: patient.name,
    therapist: therapist ? { name: fullName(therapist), registrationNumber: therapist.registrationNumber ?? null } : null,
    minorException: e.minorException ?? null,
    signers: opened.map(({ s, secrets }) => ({
      role: s.role,
      name: secrets.data.fullName ?? s.name,
      asked: s.asked,
      data: secrets.data,
      checkboxes: s.checkboxes ?? [],
      signature: secrets.signature,
      signedAt: s.signedAt!,
    })),
    events,
    completedAt,
    seal: { subject: cert.subject, fingerprintSha256: cert.fingerprintSha256 },
  });
  const sealed = await seal.seal(pdf, { reason: `Consentimiento firmado: ${shown.documentTitle}` }, now);
  const fileName = fileNameOf(shown.documentTitle);

  return d.db.transaction(async (tx) => {
    const locked = consentEnvelopesRepository(tx);
    const current = (await locked.lock(e.id))!;
    if (current.documentId) return false;
    const id = await d.documents.addGenerated(tx, {
      workspaceId: e.workspaceId,
      patientId: e.patientId,
      name: fileName,
      contentType: 'application/pdf',
      bytes: sealed,
      tags: [CONSENT_DOCUMENT_TAG],
      by: e.therapistId,
    });
    await locked.update(e.id, { documentId: id });
    await d.audit.record(tx, {
      workspaceId: e.workspaceId,
      actorId: null,
      action: 'consent.completed',
      target: e.documentTitle,
      details: { envelopeId: e.id, patientId: e.patientId, patientName: patient.name, documentId: id },
    });
    await locked.addEvent({
      workspaceId: e.workspaceId,
      envelopeId: e.id,
      type: 'completed',
      at: now,
      documentSha256: e.documentSha256,
      details: {
        documentId: id,
        pdfSha256: sha256Hex(sealed),
        sealFingerprint: cert.fingerprintSha256,
        completedAt: completedAt.toISOString(),
      },
    });

    const mailBrand = { name: brand.name, logoUrl: brand.logoPath ? `${d.publicUrl}${brand.logoPath}` : null };
    const doc = { title: shown.documentTitle, fileName, pdf: sealed };
    for (const { s, secrets } of opened) {
      await d.mailer.send(signedCopyMail(s.email, secrets.data.fullName ?? s.name, doc, mailBrand, false), {
        tx,
        key: `consent-copy:${s.id}`,
        purpose: 'consent-copy',
        workspaceId: e.workspaceId,
      });
    }
    if (therapist) {
      await d.mailer.send(signedCopyMail(therapist.email, therapist.firstName, doc, mailBrand, true), {
        tx,
        key: `consent-copy:${e.id}:therapist`,
        purpose: 'consent-copy',
        workspaceId: e.workspaceId,
      });
    }
    return true;
  });
}

/** The sealed PDF as stored (decrypted), or null when its document is gone. */
export async function readSealedPdf(d: Pick<SigningDeps, 'documents'>, e: EnvelopeRow): Promise<Buffer | null> {
  return e.documentId ? d.documents.readGenerated(e.workspaceId, e.patientId, e.documentId) : null;
}
