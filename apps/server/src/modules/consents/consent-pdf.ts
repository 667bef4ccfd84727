import {
  DEFAULT_TIME_ZONE,
  CONSENT_DATA_FIELDS,
  formatLocal,
  CONSENT_SIGNER_ROLE_LABELS,
  MINOR_EXCEPTION_REASONS,
  type ConsentDataField,
  type ConsentSignerRole,
  type MinorExceptionReason,
} from '@divan/core';
import { FONT } from '../../platform/documents/fonts';
import { COLORS, contentWidth, createDocument, ensureSpace, renderToBuffer, SIZES, tagged } from '../../platform/documents/pdf-kit';
import { heading, keyValues, paragraph, title } from '../../platform/documents/pdf-blocks';
import { htmlToBlocks } from '../patient-export/html-text';
import type { ShownDocument } from './consent-document';
import type { ConsentEventType, StoredSignature } from './consent-envelopes.tables';

type Doc = PDFKit.PDFDocument;
const TZ = DEFAULT_TIME_ZONE;
/** Local time in Madrid, and the exact UTC instant with seconds (evidence). */
const when = (d: Date) => `${formatLocal(d, TZ)} h (${d.toISOString().replace('T', ' ').slice(0, 19)} UTC)`;

export type PdfSigner = {
  role: ConsentSignerRole;
  name: string;
  asked: ConsentDataField[];
  data: Partial<Record<ConsentDataField, string>>;
  checkboxes: number[];
  signature: StoredSignature;
  signedAt: Date;
};
export type PdfEvent = {
  type: ConsentEventType;
  signerRole: ConsentSignerRole | null;
  actor: string | null;
  at: Date;
  ip: string | null;
  userAgent: string | null;
  documentSha256: string;
};

export type ConsentPdfInput = {
  envelopeId: string;
  document: ShownDocument;
  documentSha256: string;
  workspaceName: string;
  patientName: string;
  therapist: { name: string; registrationNumber: string | null } | null;
  minorException: { reason: MinorExceptionReason; otherGuardianInformed: boolean } | null;
  signers: PdfSigner[];
  events: PdfEvent[];
  /** The last event, not yet written when the PDF is built: its time. */
  completedAt: Date;
  seal: { subject: string; fingerprintSha256: string };
};

const EVENT_LABELS: Record<ConsentEventType, string> = {
  created: 'Creado',
  sent: 'Enviado',
  opened: 'Abierto',
  signed: 'Firmado',
  completed: 'Completado y sellado',
  revoked: 'Anulado',
  reminded: 'Recordatorio enviado',
};

/**
 * The signed consent: the document as it was shown, then each signer's data, ticked boxes and
 * signature, and a last page with the evidence trail. The caller seals the bytes (DocumentSeal).
 */
export async function consentPdf(input: ConsentPdfInput): Promise<Buffer> {
  const { document: d } = input;
  const doc = await createDocument({
    title: d.documentTitle,
    author: input.workspaceName,
    subject: `Consentimiento firmado de ${input.patientName}`,
    footer: `${input.workspaceName} · Documento ${input.envelopeId} · SHA-256 ${input.documentSha256.slice(0, 16)}…`,
    createdAt: input.completedAt,
  });
  title(doc, d.documentTitle, `${input.workspaceName} · Paciente: ${input.patientName}`);
  const ticked = new Map(input.signers.map((s) => [s.role, new Set(s.checkboxes)]));
  for (const s of d.sections) {
    if (s.title) heading(doc, s.title);
    for (const b of htmlToBlocks(s.body)) paragraph(doc, b.text, { bullet: b.kind === 'item', bold: b.kind === 'heading' });
    if (s.checkbox) {
      for (const signer of input.signers) {
        const mark = ticked.get(signer.role)?.has(s.index) ? '[X]' : '[ ]';
        paragraph(
          doc,
          `${mark} ${s.checkbox.label}${s.checkbox.required ? ' (obligatoria)' : ''} — ${signer.name} (${CONSENT_SIGNER_ROLE_LABELS[signer.role]})`,
        );
      }
    }
  }
  if (input.minorException) {
    heading(doc, 'Firma de un solo progenitor (art. 156 del Código Civil)');
    paragraph(
      doc,
      `Motivo: ${MINOR_EXCEPTION_REASONS[input.minorException.reason]}. El terapeuta declaró que el otro progenitor ha sido informado.`,
    );
  }
  heading(doc, 'Firmas');
  for (const s of input.signers) signerBlock(doc, s);
  if (input.therapist && d.therapistSignature) {
    ensureSpace(doc, 110);
    keyValues(doc, [
      ['Terapeuta', input.therapist.name],
      ['Nº de colegiado', input.therapist.registrationNumber],
    ]);
    drawPng(doc, d.therapistSignature.image);
  }

  doc.addPage();
  title(doc, 'Registro de evidencias', `Documento ${input.envelopeId}`);
  paragraph(doc, `Huella SHA-256 del documento mostrado a los firmantes: ${input.documentSha256}`, { size: SIZES.small });
  paragraph(
    doc,
    `Sellado por ${input.seal.subject} (certificado SHA-256 ${input.seal.fingerprintSha256}). Firma electrónica simple (Reglamento eIDAS, art. 3.10) con evidencias; el sello PDF permite detectar cualquier cambio posterior.`,
    { size: SIZES.small, muted: true },
  );
  for (const e of input.events) eventLine(doc, e);
  eventLine(doc, {
    type: 'completed',
    signerRole: null,
    actor: null,
    at: input.completedAt,
    ip: null,
    userAgent: null,
    documentSha256: input.documentSha256,
  });
  return renderToBuffer(doc);
}

function signerBlock(doc: Doc, s: PdfSigner) {
  ensureSpace(doc, 140);
  heading(doc, `${CONSENT_SIGNER_ROLE_LABELS[s.role]}: ${s.name}`, 3);
  keyValues(doc, [
    ...s.asked.map((f): [string, string | undefined] => [CONSENT_DATA_FIELDS.labels[f], s.data[f]]),
    ['Firmado el', when(s.signedAt)],
  ]);
  if (s.signature.kind === 'drawn') drawPng(doc, s.signature.png);
  else typedSignature(doc, s.signature.name);
}

function drawPng(doc: Doc, dataUrl: string) {
  const png = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  ensureSpace(doc, 80);
  const y = doc.y;
  tagged(doc, 'Figure', () => doc.image(png, doc.page.margins.left, y, { fit: [220, 70] }), { alt: 'Firma manuscrita' });
  doc.y = y + 76;
  doc.x = doc.page.margins.left;
}

/** A typed name, drawn slanted and large like a handwritten signature (the keyboard alternative). */
function typedSignature(doc: Doc, name: string) {
  ensureSpace(doc, 60);
  const left = doc.page.margins.left;
  const y = doc.y + 6;
  tagged(doc, 'P', () => {
    doc.save();
    doc.transform(1, 0, -0.28, 1, 0.28 * (y + 20), 0);
    doc
      .font(FONT.regular)
      .fontSize(22)
      .fillColor(COLORS.primary)
      .text(name, left + 6, y, { width: contentWidth(doc) - 20, lineBreak: false });
    doc.restore();
  });
  doc.y = y + 32;
  doc.font(FONT.regular).fontSize(SIZES.small).fillColor(COLORS.muted);
  tagged(doc, 'P', () => doc.text('(Firma escrita con el teclado)', left, doc.y, { width: contentWidth(doc) }));
  doc.fillColor(COLORS.text).moveDown(0.5);
}

function eventLine(doc: Doc, e: PdfEvent) {
  const who = e.signerRole
    ? ` · ${CONSENT_SIGNER_ROLE_LABELS[e.signerRole]}${e.actor ? ` (${e.actor})` : ''}`
    : e.actor
      ? ` · ${e.actor}`
      : '';
  ensureSpace(doc, 40);
  paragraph(doc, `${when(e.at)} · ${EVENT_LABELS[e.type]}${who}`, { bold: true, size: SIZES.small, gap: 1 });
  const tech = [e.ip ? `IP ${e.ip}` : null, e.userAgent ? `Navegador: ${e.userAgent.slice(0, 160)}` : null, `SHA-256 ${e.documentSha256}`]
    .filter(Boolean)
    .join(' · ');
  paragraph(doc, tech, { size: SIZES.small - 1, muted: true, gap: 5 });
}
