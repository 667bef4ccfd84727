import type PDFDocumentType from 'pdfkit';
import {
  ENDING_REASON,
  GENDER,
  INSURANCE_COMPANY,
  MODALITY,
  REFERRAL_SOURCE,
  SESSION_TYPE,
  TREATMENT_MOTIVE,
  TREATMENT_STATUS,
  type PatientExport,
} from '@divan/core';
import { htmlToBlocks } from './html-text';

const MARGIN = 56;
const INK = '#1f2933';
const MUTED = '#6b7280';
const ACCENT = '#3d5a80';

/** DD/MM/YYYY from an ISO day or instant. */
export const dmy = (iso: string | null | undefined) => (iso ? iso.slice(0, 10).split('-').reverse().join('/') : '');
const label = (vocab: { labels: Record<string, string> }, key: string | null | undefined) => (key ? (vocab.labels[key] ?? key) : '');
const euros = (cents: number | null) => (cents === null ? '' : (cents / 100).toLocaleString('es-ES', { style: 'currency', currency: 'EUR' }));
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} MB`);

// The standard PDF fonts speak Windows-1252: other characters fall back to their unaccented form or "?".
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const printable = (c: string) => c === '\n' || (c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || WIN_ANSI_EXTRA.has(c);
export function winAnsi(s: string): string {
  let out = '';
  for (const c of s) {
    if (printable(c)) out += c;
    else {
      const base = c.normalize('NFKD').replace(/\p{Diacritic}/gu, '');
      out += [...base].every(printable) && base ? base : '?';
    }
  }
  return out;
}

/**
 * A patient's file as a readable A4 PDF in Spanish: a header with the name and date, then personal
 * data, billing, treatment, the (non-private) history entries and the list of documents.
 */
export async function renderPatientPdf(data: PatientExport, workspaceName: string | null): Promise<PDFKit.PDFDocument> {
  // Loaded on first use, like the other heavy libraries.
  const { default: PDFDocument }: { default: typeof PDFDocumentType } = await import('pdfkit');
  const p = data.patient;
  const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    lang: 'es-ES',
    info: { Title: winAnsi(`Expediente de ${name}`), Author: 'Diván', Creator: 'Diván', CreationDate: new Date(data.generatedAt) },
  });
  const width = doc.page.width - 2 * MARGIN;
  const text = (s: string, opts?: PDFKit.Mixins.TextOptions) => doc.text(winAnsi(s), opts);

  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK);
  text(name);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  text(`${workspaceName ? `${workspaceName} · ` : ''}Expediente generado el ${dmy(data.generatedAt)}`);
  doc.moveDown(0.5).moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.5).strokeColor('#cbd5e1').stroke().moveDown(0.5);

  const section = (title: string) => {
    if (doc.y > doc.page.height - MARGIN - 80) doc.addPage();
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(ACCENT);
    text(title);
    doc.moveDown(0.3);
  };
  const fields = (rows: [string, string | null | undefined][]) => {
    for (const [k, v] of rows) {
      if (!v) continue;
      doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
      text(`${k}: `, { continued: true });
      doc.font('Helvetica');
      text(v);
    }
  };

  section('Datos personales');
  fields([
    ['Nombre', p.firstName],
    ['Apellidos', p.lastName],
    ['Email', p.email],
    ['Teléfono', p.phone],
    ['Fecha de nacimiento', dmy(p.birthdate)],
    ['Género', label(GENDER, p.gender)],
    ['DNI/NIE', p.taxId],
    ['Terapeuta asignado', p.assignedTherapist?.name],
    ['Alta', dmy(p.createdAt)],
  ]);

  const b = data.billingInfo;
  if (b && Object.values(b).some(Boolean)) {
    section('Datos de facturación');
    fields([
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
    section('Tratamiento');
    fields([
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
    section('Historia clínica');
    if (!data.history.length) {
      doc.font('Helvetica').fontSize(10).fillColor(MUTED);
      text('Sin entradas.');
    }
    // Oldest first: a clinical history reads as a story.
    for (const e of [...data.history].reverse()) {
      if (doc.y > doc.page.height - MARGIN - 60) doc.addPage();
      doc.moveDown(0.6).font('Helvetica-Bold').fontSize(11).fillColor(INK);
      text(`${dmy(e.date)} · ${e.title}`);
      doc.font('Helvetica').fontSize(9).fillColor(MUTED);
      text(e.author.name);
      doc.moveDown(0.2).fontSize(10).fillColor(INK);
      for (const block of htmlToBlocks(e.body)) {
        doc.font(block.kind === 'heading' ? 'Helvetica-Bold' : 'Helvetica');
        if (block.kind === 'item') text(`•  ${block.text}`, { indent: 10, paragraphGap: 2 });
        else text(block.text, { paragraphGap: block.kind === 'heading' ? 3 : 4 });
      }
    }
  }

  if (data.documents) {
    section('Documentos');
    doc.font('Helvetica').fontSize(10).fillColor(data.documents.length ? INK : MUTED);
    if (!data.documents.length) text('Sin documentos.');
    for (const d of data.documents) text(`•  ${d.name} (${size(d.size)}, ${dmy(d.createdAt)})${d.tags.length ? ` · ${d.tags.join(', ')}` : ''}`, { indent: 10 });
  }

  // Footers last, on every buffered page; the bottom margin is lifted so they do not open a new page.
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    doc.text(winAnsi(`${name} · Confidencial: contiene datos de salud · Página ${i + 1} de ${count}`), MARGIN, doc.page.height - MARGIN / 2 - 8, { width, align: 'center', lineBreak: false });
  }
  doc.end();
  return doc;
}
