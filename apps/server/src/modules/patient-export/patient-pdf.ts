import {
  displayDayEs,
  ENDING_REASON,
  GENDER,
  INSURANCE_COMPANY,
  MODALITY,
  REFERRAL_SOURCE,
  SESSION_TYPE,
  TREATMENT_MOTIVE,
  TREATMENT_STATUS,
  formatCents,
  formatInteger,
  formatPhone,
  type PatientExport,
} from '@divan/core';
import { header, heading, keyValues, paragraph, title } from '../../platform/documents/pdf-blocks';
import { createDocument, finish } from '../../platform/documents/pdf-kit';
import { table } from '../../platform/documents/pdf-table';
import { htmlToBlocks } from './html-text';

/** DD/MM/YYYY from an ISO day or instant. */
export const dmy = (iso: string | null | undefined) => (iso ? displayDayEs(iso) : '');
const label = (vocab: { labels: Record<string, string> }, key: string | null | undefined) => (key ? (vocab.labels[key] ?? key) : '');
const euros = (cents: number | null) => (cents === null ? '' : formatCents(cents));
const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${formatInteger(Math.max(1, Math.round(bytes / 1024)))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`;

/**
 * A patient's file as a readable A4 PDF in Spanish, on the document kit: the workspace, the name
 * and date, then personal data, billing, treatment, the (non-private) history entries and the list
 * of documents. Returned finished, as a stream.
 */
export async function renderPatientPdf(data: PatientExport, workspaceName: string | null): Promise<PDFKit.PDFDocument> {
  const p = data.patient;
  const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
  const doc = await createDocument({
    title: `Expediente de ${name}`,
    author: workspaceName ?? 'Diván',
    subject: 'Expediente clínico',
    createdAt: new Date(data.generatedAt),
    footer: `${name} · Confidencial: contiene datos de salud`,
  });
  if (workspaceName) header(doc, { name: workspaceName, lines: ['Expediente clínico', 'Confidencial'] });
  title(doc, name, `Expediente generado el ${dmy(data.generatedAt)}`);

  heading(doc, 'Datos personales');
  keyValues(doc, [
    ['Nombre', p.firstName],
    ['Apellidos', p.lastName],
    ['Email', p.email],
    ['Teléfono', p.phone ? formatPhone(p.phone) : null],
    ['Fecha de nacimiento', dmy(p.birthdate)],
    ['Género', label(GENDER, p.gender)],
    ['DNI/NIE', p.taxId],
    ['Terapeuta asignado', p.assignedTherapist?.name],
    ['Alta', dmy(p.createdAt)],
  ]);

  const b = data.billingInfo;
  if (b && Object.values(b).some(Boolean)) {
    heading(doc, 'Datos de facturación');
    keyValues(doc, [
      ['Nombre fiscal', b.fullName],
      ['DNI/NIE', b.taxId],
      ['Dirección', [b.line1, b.line2].filter(Boolean).join(', ')],
      ['Código postal', b.zipCode],
      ['Ciudad', b.city],
      ['País', b.country],
    ]);
  }

  const t = data.treatment;
  if (t) {
    heading(doc, 'Tratamiento');
    keyValues(doc, [
      ['Estado', label(TREATMENT_STATUS, t.status)],
      ['Inicio', dmy(t.startDate)],
      ['Fin', dmy(t.endDate)],
      ['Motivo de finalización', label(ENDING_REASON, t.endingReason)],
      ['Motivo de consulta', label(TREATMENT_MOTIVE, t.motive)],
      ['Tipo de sesión', label(SESSION_TYPE, t.sessionType)],
      ['Modalidad', label(MODALITY, t.sessionModality)],
      ['Precio por sesión', euros(t.sessionPrice)],
      ['Medicación', t.medication],
      ['Cómo nos conoció', label(REFERRAL_SOURCE, t.referralSource)],
      ['Aseguradora', label(INSURANCE_COMPANY, t.insuranceCompany)],
      ['Póliza', t.insurancePolicy],
    ]);
  }

  if (data.history) {
    heading(doc, 'Historia clínica');
    if (!data.history.length) paragraph(doc, 'Sin entradas.', { muted: true });
    // Oldest first: a clinical history reads as a story.
    for (const e of [...data.history].reverse()) {
      heading(doc, `${dmy(e.date)} · ${e.title}`, 3);
      paragraph(doc, e.author.name, { muted: true, size: 8.5, gap: 5 });
      for (const block of htmlToBlocks(e.body))
        paragraph(doc, block.text, { bold: block.kind === 'heading', bullet: block.kind === 'item', gap: block.kind === 'item' ? 2 : 4 });
    }
  }

  if (data.documents) {
    heading(doc, 'Documentos');
    if (!data.documents.length) paragraph(doc, 'Sin documentos.', { muted: true });
    else
      table(doc, {
        columns: [
          { header: 'Documento', width: '2*' },
          { header: 'Etiquetas', width: '*' },
          { header: 'Tamaño', width: 60, align: 'right' },
          { header: 'Fecha', width: 70, align: 'right' },
        ],
        rows: data.documents.map((d) => [d.name, d.tags.join(', '), size(d.size), dmy(d.createdAt)]),
      });
  }
  return finish(doc);
}
