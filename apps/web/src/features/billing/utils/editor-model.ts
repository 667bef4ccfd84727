import {
  formatDayEs,
  centsToEuros,
  eurosToCents,
  GENERAL_VAT_RATE,
  invoiceTotals,
  isVatExemptItem,
  resolveLineTaxes,
  withholds,
  type BuyerKind,
  type Invoice,
  type InvoiceItemKind,
  type InvoiceLineInput,
  type InvoiceTaxSettings,
  type InvoiceTotals,
} from '@divan/core';
import { emptyParty, partyValues, type PartyValues } from '../../../lib/address-form'; // relative: the unit tests run without the @ alias
import type { UpdateInvoice } from '../api/invoices-api';

/** A line as typed: amounts stay text until they are sent, so nothing the user writes is rewritten. */
export type LineDraft = {
  key: string;
  description: string;
  itemKind: InvoiceItemKind;
  quantity: string;
  price: string;
  sessionId: string | null;
  vat: VatChoice;
  withholding: WithholdingChoice;
};

/** A line's VAT: the rule of its kind ('auto'), exempt (art. 20, E1) or a rate; its withholding likewise. */
export const VAT_CHOICES = ['auto', 'E1', '21', '10', '4', '0'] as const;
export type VatChoice = (typeof VAT_CHOICES)[number];
export const WITHHOLDING_CHOICES = ['auto', '0', '7', '15', '19'] as const;
export type WithholdingChoice = (typeof WITHHOLDING_CHOICES)[number];

/**
 * What a choice sends (nothing for 'auto': the server applies the same rule). A withholding chosen while
 * a company paid is not sent once a private person pays (`buyerWithholds` false): they never withhold,
 * and the server refuses it.
 */
function taxChoice(
  l: Pick<LineDraft, 'vat' | 'withholding'>,
  buyerWithholds: boolean,
): { vatRate?: 0 | 4 | 10 | 21; exemption?: 'E1' | null; withholdingRate?: 0 | 7 | 15 | 19 } {
  const out: ReturnType<typeof taxChoice> = {};
  if (l.vat === 'E1') Object.assign(out, { vatRate: 0, exemption: 'E1' });
  else if (l.vat !== 'auto') Object.assign(out, { vatRate: Number(l.vat), exemption: null });
  if (l.withholding !== 'auto' && buyerWithholds) out.withholdingRate = Number(l.withholding) as 0 | 7 | 15 | 19;
  return out;
}
export type BuyerDraft = { kind: BuyerKind } & PartyValues;
export type EditorModel = {
  patient: { id: string; name: string } | null;
  /** Who pays: the patient (their billing data in the file) or someone else (a guardian, a company, an insurer). */
  billTo: 'patient' | 'other';
  buyer: BuyerDraft;
  lines: LineDraft[];
  footer: string;
};
export type LineErrors = Partial<Record<'description' | 'quantity' | 'price', string>>;

let seq = 0;
export const newKey = () => `l${++seq}`;

export const emptyBuyer = (): BuyerDraft => ({ kind: 'guardian', ...emptyParty() });
export const emptyLine = (): LineDraft => ({
  key: newKey(),
  description: '',
  itemKind: 'therapy',
  quantity: '1',
  price: '',
  sessionId: null,
  vat: 'auto',
  withholding: 'auto',
});

export function emptyModel(footer: string | null = null, patient: EditorModel['patient'] = null): EditorModel {
  return { patient, billTo: 'patient', buyer: emptyBuyer(), lines: [], footer: footer ?? '' };
}

const quantityText = (q: number) => String(q).replace('.', ',');

/** A saved draft as the form shows it. */
export function modelOf(invoice: Invoice): EditorModel {
  const b = invoice.buyer;
  const other = !!b && b.kind !== 'patient';
  return {
    patient: invoice.patient,
    billTo: other || !invoice.patient ? 'other' : 'patient',
    buyer: other ? { kind: b.kind as BuyerKind, ...partyValues(b) } : emptyBuyer(),
    lines: invoice.lines.map((l) => ({
      key: newKey(),
      description: l.description,
      itemKind: l.itemKind,
      quantity: quantityText(l.quantity),
      price: centsToEuros(l.unitPriceCents),
      sessionId: l.sessionId,
      ...savedChoice(l, withholds(buyerKindOfInvoice(invoice))),
    })),
    footer: invoice.footer ?? '',
  };
}

const buyerKindOfInvoice = (invoice: Invoice): BuyerKind =>
  invoice.buyer && invoice.buyer.kind !== 'patient' ? (invoice.buyer.kind as BuyerKind) : 'patient';

/**
 * A saved line's taxes as choices: 'auto' where they are what the rule gives (the withholding rule
 * depends on the therapist's rate, so any usual rate for a buyer who withholds counts as the rule).
 */
function savedChoice(l: Invoice['lines'][number], buyerWithholds: boolean): Pick<LineDraft, 'vat' | 'withholding'> {
  const kindExempt = isVatExemptItem(l.itemKind);
  const vatIsRule = kindExempt ? l.exemption === 'E1' : !l.exemption && l.vatRate === GENERAL_VAT_RATE;
  const withholdingIsRule = buyerWithholds ? l.withholdingRate === 15 || l.withholdingRate === 7 : l.withholdingRate === 0;
  return {
    vat: vatIsRule ? 'auto' : l.exemption === 'E1' ? 'E1' : (String(l.vatRate) as VatChoice),
    withholding: withholdingIsRule ? 'auto' : (String(l.withholdingRate) as WithholdingChoice),
  };
}

/** "1", "1,5", "0.25" → a number with at most two decimals; NaN otherwise (0 included: a line needs a quantity). */
export function parseQuantity(text: string): number {
  const match = /^(\d{1,4})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(`${match[1]}.${match[2] ?? '0'}`);
  return value > 0 && value <= 1000 ? value : Number.NaN;
}

export function lineErrors(line: LineDraft): LineErrors {
  const errors: LineErrors = {};
  if (!line.description.trim()) errors.description = 'Escribe el concepto.';
  else if (line.description.trim().length > 300) errors.description = 'Como mucho 300 caracteres.';
  if (Number.isNaN(parseQuantity(line.quantity))) errors.quantity = 'Una cantidad mayor que cero, con dos decimales como mucho.';
  const cents = eurosToCents(line.price);
  if (cents === null) errors.price = 'Escribe el precio.';
  else if (Number.isNaN(cents) || cents > 10_000_000) errors.price = 'Un importe en euros, p. ej. 60 o 62,50 (hasta 100.000 €).';
  return errors;
}

export const buyerKindOf = (m: EditorModel): BuyerKind => (m.billTo === 'patient' ? 'patient' : m.buyer.kind);

/**
 * The live totals with the taxes the server will apply (defaultLineTaxes: therapy exempt, the rest
 * 21 %, withholding when the buyer is a business): the same @divan/core arithmetic, so the numbers
 * match the issued invoice. Lines still being typed (no valid price or quantity) count as nothing.
 */
export function liveTotals(m: EditorModel, settings: InvoiceTaxSettings): InvoiceTotals & { lineTotals: (number | null)[] } {
  const kind = buyerKindOf(m);
  const inputs: (InvoiceLineInput | null)[] = m.lines.map((l) => {
    const cents = eurosToCents(l.price);
    const quantity = parseQuantity(l.quantity);
    if (cents === null || Number.isNaN(cents) || Number.isNaN(quantity)) return null;
    const taxes = resolveLineTaxes({ itemKind: l.itemKind, ...taxChoice(l, withholds(kind)) }, kind, settings);
    return taxes ? { description: l.description, unitPriceCents: cents, quantity, ...taxes } : null;
  });
  const valid = inputs.filter((i): i is InvoiceLineInput => i !== null);
  const totals = invoiceTotals(valid);
  let next = 0;
  const lineTotals = inputs.map((i) => (i ? totals.lines[next++]!.totalCents : null));
  return { ...totals, lineTotals };
}

const orNull = (s: string) => (s.trim() ? s.trim() : null);

/** What PATCH/POST takes; taxes left on 'auto' follow the server's rule of each kind and buyer. */
export function bodyOf(m: EditorModel): UpdateInvoice {
  const buyerWithholds = withholds(buyerKindOf(m));
  return {
    patientId: m.patient?.id ?? null,
    buyer:
      m.billTo === 'other'
        ? {
            kind: m.buyer.kind,
            fullName: m.buyer.fullName.trim(),
            taxId: orNull(m.buyer.taxId),
            line1: orNull(m.buyer.line1),
            line2: orNull(m.buyer.line2),
            city: orNull(m.buyer.city),
            zipCode: orNull(m.buyer.zipCode),
            country: orNull(m.buyer.country),
          }
        : null,
    lines: m.lines.map((l) => ({
      description: l.description.trim(),
      itemKind: l.itemKind,
      quantity: parseQuantity(l.quantity),
      unitPriceCents: eurosToCents(l.price) ?? 0,
      sessionId: l.sessionId,
      ...taxChoice(l, buyerWithholds),
    })),
    footer: orNull(m.footer),
  };
}

/** The first reason the draft cannot be sent as it is, or null. */
export function modelProblem(m: EditorModel): string | null {
  if (m.billTo === 'patient' && !m.patient) return 'Elige el paciente, o indica otro pagador.';
  if (m.billTo === 'other' && !m.buyer.fullName.trim()) return 'Escribe el nombre o la razón social de quien paga.';
  if (m.lines.some((l) => Object.keys(lineErrors(l)).length > 0)) return 'Revisa las líneas marcadas.';
  return null;
}

/** The line a session becomes, worded as the server words it (POST …/from-sessions). */
export function sessionLine(s: { id: string; day: string; price: number; modality: string }): LineDraft {
  const day = formatDayEs(s.day);
  return {
    key: newKey(),
    description: `Sesión de psicoterapia (${s.modality === 'online' ? 'online' : 'presencial'}) del ${day}`,
    itemKind: 'therapy',
    quantity: '1',
    price: centsToEuros(s.price),
    sessionId: s.id,
    vat: 'auto',
    withholding: 'auto',
  };
}
