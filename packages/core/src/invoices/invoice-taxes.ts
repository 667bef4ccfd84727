/**
 * The Spanish tax rules of a therapist's invoice, as data:
 *
 * - VAT: psychological therapy is health care, exempt under art. 20.Uno.3º of Ley 37/1992 (exemption
 *   E1, rate 0, and the invoice must say why). Expert reports for insurers or courts, training and
 *   anything else are not health care and carry the general 21%.
 * - IRPF withholding: a professional's fee is withheld at source when the buyer is a business or a
 *   professional (art. 101.5 LIRPF), at 15%, or 7% in the year the activity starts and the two after.
 *   A private person (a patient, or a guardian paying for one) never withholds.
 */
import type { InvoiceLineInput, VatExemption } from './invoice-math';

export const VAT_EXEMPT_LEGEND =
  'Operación exenta de IVA conforme al artículo 20.Uno.3º de la Ley 37/1992, del Impuesto sobre el Valor Añadido.';

/** VAT rate of every service that is not exempt. */
export const GENERAL_VAT_RATE = 21;

export const INVOICE_ITEM_KINDS = ['therapy', 'report', 'training', 'other'] as const;
export type InvoiceItemKind = (typeof INVOICE_ITEM_KINDS)[number];

export const INVOICE_ITEM_KIND_LABELS: Record<InvoiceItemKind, string> = {
  therapy: 'Terapia psicológica (asistencia sanitaria)',
  report: 'Informe para aseguradoras o juzgados',
  training: 'Formación',
  other: 'Otros servicios',
};

export const BUYER_KINDS = ['patient', 'guardian', 'company', 'professional', 'insurer'] as const;
export type BuyerKind = (typeof BUYER_KINDS)[number];

export const BUYER_KIND_LABELS: Record<BuyerKind, string> = {
  patient: 'Paciente (particular)',
  guardian: 'Tutor o representante legal (particular)',
  company: 'Empresa',
  professional: 'Profesional o autónomo',
  insurer: 'Aseguradora',
};

/** Withholding rates a therapist may apply: 15%, or 7% in the first years of activity. */
export const INVOICE_WITHHOLDING_RATES = [15, 7] as const;
export const INVOICE_WITHHOLDING_RATE_LABELS: Record<InvoiceTaxSettings['withholdingRate'], string> = {
  15: '15 % (general)',
  7: '7 % (inicio de actividad: el año de alta y los dos siguientes)',
};

export type InvoiceTaxSettings = { withholdingRate: 15 | 7 };
export const DEFAULT_INVOICE_TAX_SETTINGS: InvoiceTaxSettings = { withholdingRate: 15 };

export type LineTaxes = Pick<InvoiceLineInput, 'vatRate' | 'exemption' | 'withholdingRate'>;

const VAT_BY_ITEM: Record<InvoiceItemKind, { vatRate: number; exemption: VatExemption | null }> = {
  therapy: { vatRate: 0, exemption: 'E1' },
  report: { vatRate: GENERAL_VAT_RATE, exemption: null },
  training: { vatRate: GENERAL_VAT_RATE, exemption: null },
  other: { vatRate: GENERAL_VAT_RATE, exemption: null },
};

/** Whether the buyer withholds IRPF: a company, a professional or an insurer; never a private person. */
export function withholds(buyerKind: BuyerKind): boolean {
  return buyerKind === 'company' || buyerKind === 'professional' || buyerKind === 'insurer';
}

/** Why a line may not carry `withholdingRate` for this buyer (a private person never withholds), in Spanish; null when it may. */
export const PRIVATE_BUYER_WITHHOLDING_MESSAGE =
  'Un particular no practica retención de IRPF: solo se aplica cuando paga una empresa, un profesional o una aseguradora.';
export function withholdingProblem(buyerKind: BuyerKind, withholdingRate: number): string | null {
  return withholdingRate > 0 && !withholds(buyerKind) ? PRIVATE_BUYER_WITHHOLDING_MESSAGE : null;
}

/**
 * A simplified invoice (F2, no buyer's tax id) covers at most 400,00 €, VAT included (RD 1619/2012,
 * art. 4.1: the 3.000 € of art. 4.2 are for retail and similar trades, not these services). Above it
 * the buyer must be identified with their tax id, and the invoice is a full one (F1).
 */
export const SIMPLIFIED_INVOICE_MAX_CENTS = 40_000;
export const SIMPLIFIED_INVOICE_LIMIT_MESSAGE =
  'Las facturas de más de 400,00 € deben identificar al destinatario con su NIF: añádelo a sus datos de facturación.';
/** Why an invoice of `baseCents` + `vatCents` to a buyer with (or without) a tax id cannot be issued as it is, in Spanish; null when it can. */
export function simplifiedInvoiceProblem(t: { baseCents: number; vatCents: number; buyerTaxId: string | null | undefined }): string | null {
  return !t.buyerTaxId && t.baseCents + t.vatCents > SIMPLIFIED_INVOICE_MAX_CENTS ? SIMPLIFIED_INVOICE_LIMIT_MESSAGE : null;
}

/** Whether the item is exempt health care (VAT 0, exemption E1). */
export function isVatExemptItem(itemKind: InvoiceItemKind): boolean {
  return VAT_BY_ITEM[itemKind].exemption === 'E1';
}

/** The taxes a new line starts with; the therapist may still change them on the invoice. */
export function defaultLineTaxes(itemKind: InvoiceItemKind, buyerKind: BuyerKind, settings: InvoiceTaxSettings): LineTaxes {
  const vat = VAT_BY_ITEM[itemKind];
  return { vatRate: vat.vatRate, exemption: vat.exemption, withholdingRate: withholds(buyerKind) ? settings.withholdingRate : 0 };
}

/** The legends the invoice PDF must print, in order: the art. 20 exemption when any line is E1. */
export function invoiceLegends(lines: readonly Pick<InvoiceLineInput, 'exemption'>[]): string[] {
  const legends: string[] = [];
  if (lines.some((l) => l.exemption === 'E1')) legends.push(VAT_EXEMPT_LEGEND);
  return legends;
}

/** A line's taxes as chosen on the invoice: each one omitted follows the rule of its kind and buyer. */
export type LineTaxChoice = {
  itemKind: InvoiceItemKind;
  vatRate?: number | undefined;
  withholdingRate?: number | undefined;
  exemption?: VatExemption | null | undefined;
};

/**
 * The taxes a line ends up with (server and editor alike): the chosen VAT rate, exemption and
 * withholding where given, the default of its kind and buyer otherwise. A taxed rate (> 0) without an
 * exemption given drops the kind's exemption; an exemption given without a rate means rate 0. Null
 * when a line is exempt with a rate above 0 (contradictory).
 */
export function resolveLineTaxes(l: LineTaxChoice, buyerKind: BuyerKind, settings: InvoiceTaxSettings): LineTaxes | null {
  const taxes = defaultLineTaxes(l.itemKind, buyerKind, settings);
  const resolved = {
    vatRate: l.vatRate ?? (l.exemption ? 0 : taxes.vatRate),
    withholdingRate: l.withholdingRate ?? taxes.withholdingRate,
    exemption: l.exemption !== undefined ? l.exemption : l.vatRate !== undefined && l.vatRate > 0 ? null : taxes.exemption,
  };
  return resolved.exemption && resolved.vatRate !== 0 ? null : resolved;
}
