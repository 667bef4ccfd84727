import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents, todayIn, type Invoice } from '@divan/core';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { clinic, W, type Clinic } from '../../../test/session-fixtures';
import { pdfImages, pdfInfo, pdfLayoutText, pdfPages, pdfQrCode as decodeQr, skipPdfChecks } from '../../../test/pdf-tools';
import { VERIFACTU_LEGEND, VERIFACTU_QR_HEADING, VERIFACTU_VERIFIABLE_SENTENCE } from '../verifactu/qr';
import type { MailAttachment } from './invoice-mail';

let t: TestApp;
let c: Clinic;
const I = () => `${W(c.ws.id)}/invoices`;
const token = () => ({ token: c.tere.accessToken });
const ok = async <T = Invoice>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
/** pdftotext's text with no-break spaces as spaces and every run of white space as one (lines wrap anywhere). */
const flat = (s: string) => s.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
const euros = (cents: number) => flat(formatCents(cents));
const dmy = (day: string) => day.split('-').reverse().join('/');
const pdfOf = async (id: string) => {
  const res = await t.get(`${I()}/${id}/pdf`, token());
  expect(res.statusCode, res.body).toBe(200);
  return { res, pdf: res.rawPayload };
};

const layoutText = (pdf: Buffer) => flat(pdfLayoutText(pdf));

const company = {
  kind: 'company',
  fullName: 'Seguros Ejemplo SA',
  taxId: 'A58818501',
  line1: 'Paseo de la Castellana 200',
  zipCode: '28046',
  city: 'Madrid',
  country: 'España',
  email: 'facturas@seguros-ejemplo.test',
};
let issued: Invoice;

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'factura-pdf');
  await ok(
    t.put(
      '/api/v1/me/billing',
      {
        fullName: 'Teresa Terapeuta',
        taxId: '12345678Z',
        line1: 'Calle Mayor 1',
        city: 'Madrid',
        zipCode: '28013',
        country: 'España',
        footer: 'Inscrita en el Colegio Oficial de la Psicología de Madrid, M-12345.',
      },
      token(),
    ),
  );
  const draft = await ok(
    t.post(
      I(),
      {
        patientId: c.ana,
        buyer: company,
        footer: 'Inscrita en el Colegio Oficial de la Psicología de Madrid, M-12345.',
        lines: [
          { description: 'Sesión individual', itemKind: 'therapy', unitPriceCents: 6000, quantity: 2 },
          { description: 'Informe pericial', itemKind: 'report', unitPriceCents: 123456 },
        ],
      },
      token(),
    ),
    201,
  );
  await ok(t.post(`${I()}/${draft.id}/issue`, undefined, token()));
  issued = await ok(t.post(`${I()}/${draft.id}/payment`, { paymentType: 'transfer' }, token()));
}, 60_000);
afterAll(() => t?.close());

describe.skipIf(skipPdfChecks)('invoice PDF', () => {
  it('is a Spanish A4 invoice: number, parties, lines, VAT breakdown, totals with withholding, legends, payment, footer and pages', async () => {
    const { res, pdf } = await pdfOf(issued.id);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="factura-${issued.number}\\.pdf"`));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = pdfInfo(pdf).fields;
    expect([info.Title, info.Author, info['Page size']]).toEqual([
      `Factura ${issued.number}`,
      'Teresa Terapeuta',
      expect.stringContaining('595.28 x 841.89'),
    ]);

    const pages = pdfPages(pdf);
    const text = flat(pages.join('\n'));
    expect(text).toContain('Factura');
    expect(text).not.toContain('rectificativa');
    expect(text).toContain(issued.number!);
    expect(text).toContain(dmy(issued.issueDate!));
    for (const s of [
      'Teresa Terapeuta',
      'NIF: 12345678Z',
      'Calle Mayor 1',
      '28013 Madrid',
      'Seguros Ejemplo SA',
      'NIF: A58818501',
      'Paseo de la Castellana 200',
    ])
      expect(text).toContain(s);
    for (const h of ['Concepto', 'Cantidad', 'Precio', 'Base imponible', 'IVA %', 'IRPF %', 'Importe']) expect(text).toContain(h);
    expect(text).toContain('Sesión individual');
    expect(text).toContain('1.234,56 €'); // the report's price, grouped the Spanish way
    // Rows as laid out: the lines, the VAT breakdown (the exempt therapy, the report at 21 %) and the totals.
    const rows = layoutText(pdf);
    expect(rows).toContain(`Sesión individual 2 ${euros(6000)} ${euros(12000)} Exenta 15 % ${euros(issued.lines[0]!.totalCents)}`);
    expect(rows).toContain(`Exenta (E1) ${euros(12000)}`);
    expect(rows).toContain(`21 % ${euros(123456)} ${euros(issued.vatCents)}`);
    expect(issued.withholdingCents).toBeGreaterThan(0);
    expect(rows).toContain(`Base imponible ${euros(issued.subtotalCents)}`);
    expect(rows).toContain(`IVA ${euros(issued.vatCents)}`);
    expect(rows).toMatch(new RegExp(`Retención IRPF \\(15 %\\) ${euros(-issued.withholdingCents).replace(/[.()]/g, '\\$&')}`));
    expect(rows).toContain(`Total ${euros(issued.totalCents)}`);
    expect(issued.legends.length).toBeGreaterThan(0);
    for (const legend of issued.legends) expect(text).toContain(flat(legend));
    for (const s of ['Pagada', 'Transferencia', 'Fecha de cobro']) expect(text).toContain(s);
    expect(text).toContain('Colegio Oficial de la Psicología de Madrid, M-12345');
    pages.forEach((p, i) => expect(flat(p)).toContain(`Página ${i + 1} de ${pages.length}`));
    expect(text).not.toContain('BORRADOR');
  });

  it('carries the VERI*FACTU QR code, which decodes to exactly the invoice’s QR URL, with its heading and legends', async () => {
    const { pdf } = await pdfOf(issued.id);
    const text = flat(pdfPages(pdf)[0]!);
    for (const s of [VERIFACTU_QR_HEADING, VERIFACTU_LEGEND, VERIFACTU_VERIFIABLE_SENTENCE]) expect(text).toContain(s);
    expect(
      pdfImages(pdf)
        .filter((i) => i.type === 'image')
        .map((i) => i.page),
    ).toEqual([1]);
    expect(issued.verifactu?.qrUrl).toMatch(/^https:\/\/.*ValidarQR\?nif=12345678Z&numserie=/);
    expect(decodeQr(pdf)).toBe(issued.verifactu!.qrUrl);
  });

  it('names a rectifying invoice, the invoice it corrects, the method and the reason', async () => {
    const rect = await ok(
      t.post(
        `${I()}/${issued.id}/rectify`,
        {
          method: 'difference',
          reason: 'Precio del informe mal indicado',
          lines: [{ description: 'Descuento en el informe', itemKind: 'report', unitPriceCents: -10000 }],
        },
        token(),
      ),
      201,
    );
    const { res, pdf } = await pdfOf(rect.id);
    expect(res.headers['content-disposition']).toContain(`filename="factura-${rect.number}.pdf"`);
    const text = flat(pdfPages(pdf).join('\n'));
    for (const s of [
      'Factura rectificativa',
      rect.number!,
      `Factura rectificada: ${issued.number}`,
      'Rectificación por diferencias',
      'Precio del informe mal indicado',
    ])
      expect(text).toContain(s);
    expect(layoutText(pdf)).toContain(`Total ${euros(rect.totalCents)}`);
    expect(decodeQr(pdf)).toBe(rect.verifactu!.qrUrl);
  });

  it('stamps a voided invoice «ANULADA» on every page, with when and why', async () => {
    const draft = await ok(
      t.post(I(), { patientId: c.ana, lines: [{ description: 'Sesión individual', unitPriceCents: 6000 }] }, token()),
      201,
    );
    const inv = await ok(t.post(`${I()}/${draft.id}/issue`, undefined, token()));
    await ok(t.post(`${I()}/${inv.id}/void`, { reason: 'Emitida por duplicado' }, token()));
    const { pdf } = await pdfOf(inv.id);
    const pages = pdfPages(pdf);
    pages.forEach((p) => expect(flat(p)).toContain('ANULADA'));
    const text = flat(pages.join('\n'));
    for (const s of [
      inv.number!,
      'Anulación',
      'Emitida por duplicado',
      `Anulada el ${todayIn('Europe/Madrid').split('-').reverse().join('/')}`,
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('BORRADOR');
  });

  it('paginates a 60-line draft with the table header on every page, «BORRADOR» on every page and no QR', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description: `Sesión de psicoterapia número ${i + 1}`,
      itemKind: 'therapy',
      unitPriceCents: 6000,
    }));
    const draft = await ok(
      t.post(I(), { patientId: c.ana, buyer: { ...company, kind: 'patient', fullName: 'Ana Prueba', taxId: null }, lines }, token()),
      201,
    );
    const { res, pdf } = await pdfOf(draft.id);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="factura-borrador\.pdf"/);
    const pages = pdfPages(pdf).map(flat);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((p, i) => {
      expect(p).toContain('BORRADOR');
      expect(p).toContain('Concepto Cantidad Precio');
      expect(p).toContain(`Página ${i + 1} de ${pages.length}`);
    });
    const all = pages.join(' ');
    expect(all).toContain('Sesión de psicoterapia número 1 ');
    expect(all).toContain('Sesión de psicoterapia número 60 ');
    expect(layoutText(pdf)).toContain(`Total ${euros(360000)}`);
    expect(all).toContain('3.600,00 €');
    for (const s of [VERIFACTU_QR_HEADING, VERIFACTU_LEGEND, VERIFACTU_VERIFIABLE_SENTENCE]) expect(all).not.toContain(s);
    expect(pdfImages(pdf)).toEqual([]);
  });
});

describe('sending an invoice', () => {
  type MailWithPdf = Awaited<ReturnType<TestApp['lastMail']>> & { attachments?: MailAttachment[] };

  it('mails the issued invoice’s PDF to the buyer’s email, or to the one given', async () => {
    const sent = await ok<{ mailId: string; to: string; filename: string }>(t.post(`${I()}/${issued.id}/send`, {}, token()));
    expect(sent).toMatchObject({ to: company.email, filename: `factura-${issued.number}.pdf` });
    const mail = (await t.lastMail(company.email)) as MailWithPdf;
    expect(mail.id).toBe(sent.mailId);
    expect(mail.subject).toBe(`Factura ${issued.number} de Teresa Terapeuta`);
    expect(mail.text).toContain(euros(issued.totalCents).replace(' €', '\u00a0€'));
    expect(mail.attachments).toHaveLength(1);
    const [file] = mail.attachments!;
    expect([file!.filename, file!.contentType, file!.encoding]).toEqual([`factura-${issued.number}.pdf`, 'application/pdf', 'base64']);
    const pdf = Buffer.from(file!.content, 'base64');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (!skipPdfChecks) expect(flat(pdfPages(pdf).join('\n'))).toContain(issued.number!);

    const other = await ok<{ to: string }>(t.post(`${I()}/${issued.id}/send`, { email: 'gestoria@divan.test' }, token()));
    expect(other.to).toBe('gestoria@divan.test');
    expect(((await t.lastMail('gestoria@divan.test')) as MailWithPdf).attachments).toHaveLength(1);
  });

  it('refuses a draft, a buyer without email and a malformed address, in Spanish', async () => {
    const draft = await ok(
      t.post(I(), { patientId: c.ana, buyer: company, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] }, token()),
      201,
    );
    const refused = await t.post(`${I()}/${draft.id}/send`, {}, token());
    expect([refused.statusCode, refused.json().code, refused.json().message]).toEqual([
      409,
      'invoice_not_issued',
      'Solo se puede enviar una factura emitida.',
    ]);

    const noEmail = await ok(
      t.post(
        I(),
        { patientId: c.ana, buyer: { ...company, email: null }, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] },
        token(),
      ),
      201,
    );
    await ok(t.post(`${I()}/${noEmail.id}/issue`, undefined, token()));
    const missing = await t.post(`${I()}/${noEmail.id}/send`, {}, token());
    expect([missing.statusCode, missing.json().code]).toEqual([400, 'invalid_argument']);
    expect(missing.json().message).toMatch(/no tiene email/);
    const bad = await t.post(`${I()}/${noEmail.id}/send`, { email: 'no-es-un-email' }, token());
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'invalid_argument']);
  });

  it('is not for someone else’s invoice: 404 for an unknown one', async () => {
    const res = await t.post(`${I()}/00000000-0000-4000-8000-000000000000/send`, {}, token());
    expect([res.statusCode, res.json().code]).toEqual([404, 'invoice_not_found']);
  });
});
