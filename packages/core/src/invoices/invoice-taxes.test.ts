import { describe, expect, it } from 'vitest';
import { invoiceTotals, lineTotals, type InvoiceLineInput } from './invoice-math';
import {
  BUYER_KIND_LABELS,
  BUYER_KINDS,
  DEFAULT_INVOICE_TAX_SETTINGS,
  defaultLineTaxes,
  INVOICE_ITEM_KIND_LABELS,
  INVOICE_ITEM_KINDS,
  INVOICE_WITHHOLDING_RATE_LABELS,
  INVOICE_WITHHOLDING_RATES,
  invoiceLegends,
  isVatExemptItem,
  resolveLineTaxes,
  simplifiedInvoiceProblem,
  SIMPLIFIED_INVOICE_LIMIT_MESSAGE,
  VAT_EXEMPT_LEGEND,
  withholdingProblem,
  withholds,
  type BuyerKind,
  type InvoiceItemKind,
} from './invoice-taxes';

const general = { withholdingRate: 15 } as const;
const starting = { withholdingRate: 7 } as const;

describe('VAT_EXEMPT_LEGEND', () => {
  it('cites art. 20.Uno.3º of Ley 37/1992 word for word', () => {
    expect(VAT_EXEMPT_LEGEND).toBe(
      'Operación exenta de IVA conforme al artículo 20.Uno.3º de la Ley 37/1992, del Impuesto sobre el Valor Añadido.',
    );
  });
});

describe('item and buyer kinds', () => {
  it('labels every item kind in Spanish', () => {
    expect(INVOICE_ITEM_KINDS).toEqual(['therapy', 'report', 'training', 'other']);
    expect(Object.keys(INVOICE_ITEM_KIND_LABELS).sort()).toEqual([...INVOICE_ITEM_KINDS].sort());
    expect(INVOICE_ITEM_KIND_LABELS.therapy).toBe('Terapia psicológica (asistencia sanitaria)');
    expect(INVOICE_ITEM_KIND_LABELS.report).toBe('Informe para aseguradoras o juzgados');
    expect(INVOICE_ITEM_KIND_LABELS.training).toBe('Formación');
    expect(INVOICE_ITEM_KIND_LABELS.other).toBe('Otros servicios');
  });

  it('labels every buyer kind in Spanish', () => {
    expect(BUYER_KINDS).toEqual(['patient', 'guardian', 'company', 'professional', 'insurer']);
    expect(Object.keys(BUYER_KIND_LABELS).sort()).toEqual([...BUYER_KINDS].sort());
    for (const kind of BUYER_KINDS) expect(BUYER_KIND_LABELS[kind]).toMatch(/^[A-ZÁÉÍÓÚ]/);
  });

  it('offers 15% and 7% withholding, 15% by default, each with a Spanish label', () => {
    expect(INVOICE_WITHHOLDING_RATES).toEqual([15, 7]);
    expect(DEFAULT_INVOICE_TAX_SETTINGS).toEqual({ withholdingRate: 15 });
    expect(INVOICE_WITHHOLDING_RATE_LABELS[15]).toBe('15 % (general)');
    expect(INVOICE_WITHHOLDING_RATE_LABELS[7]).toContain('inicio de actividad');
  });
});

describe('withholds', () => {
  it.each([
    ['patient', false],
    ['guardian', false],
    ['company', true],
    ['professional', true],
    ['insurer', true],
  ] as [BuyerKind, boolean][])('%s → %s', (buyer, expected) => {
    expect(withholds(buyer)).toBe(expected);
  });
});

describe('isVatExemptItem', () => {
  it('only therapy is exempt health care', () => {
    expect(INVOICE_ITEM_KINDS.filter(isVatExemptItem)).toEqual(['therapy']);
  });
});

describe('defaultLineTaxes', () => {
  it('therapy is exempt (E1, 0%) whoever pays', () => {
    for (const buyer of BUYER_KINDS) {
      const taxes = defaultLineTaxes('therapy', buyer, general);
      expect(taxes.vatRate, buyer).toBe(0);
      expect(taxes.exemption, buyer).toBe('E1');
    }
  });

  it.each(['report', 'training', 'other'] as InvoiceItemKind[])('%s carries 21% VAT and no exemption, whoever pays', (item) => {
    for (const buyer of BUYER_KINDS) {
      const taxes = defaultLineTaxes(item, buyer, general);
      expect(taxes.vatRate, buyer).toBe(21);
      expect(taxes.exemption, buyer).toBeNull();
    }
  });

  it('a private buyer never withholds, whatever the settings', () => {
    for (const item of INVOICE_ITEM_KINDS) {
      for (const settings of [general, starting]) {
        expect(defaultLineTaxes(item, 'patient', settings).withholdingRate).toBe(0);
        expect(defaultLineTaxes(item, 'guardian', settings).withholdingRate).toBe(0);
      }
    }
  });

  it.each(['company', 'professional', 'insurer'] as BuyerKind[])('%s withholds the rate of the settings on every item', (buyer) => {
    for (const item of INVOICE_ITEM_KINDS) {
      expect(defaultLineTaxes(item, buyer, general).withholdingRate).toBe(15);
      expect(defaultLineTaxes(item, buyer, starting).withholdingRate).toBe(7);
    }
  });

  it('spells out the usual cases', () => {
    expect(defaultLineTaxes('therapy', 'patient', general)).toEqual({ vatRate: 0, exemption: 'E1', withholdingRate: 0 });
    expect(defaultLineTaxes('therapy', 'insurer', general)).toEqual({ vatRate: 0, exemption: 'E1', withholdingRate: 15 });
    expect(defaultLineTaxes('report', 'insurer', starting)).toEqual({ vatRate: 21, exemption: null, withholdingRate: 7 });
    expect(defaultLineTaxes('report', 'patient', general)).toEqual({ vatRate: 21, exemption: null, withholdingRate: 0 });
    expect(defaultLineTaxes('training', 'company', general)).toEqual({ vatRate: 21, exemption: null, withholdingRate: 15 });
  });

  it('always gives taxes lineTotals accepts', () => {
    for (const item of INVOICE_ITEM_KINDS) {
      for (const buyer of BUYER_KINDS) {
        for (const settings of [general, starting]) {
          const line: InvoiceLineInput = {
            description: 'x',
            unitPriceCents: 6000,
            quantity: 1,
            ...defaultLineTaxes(item, buyer, settings),
          };
          expect(() => lineTotals(line)).not.toThrow();
        }
      }
    }
  });

  it('a session for an insurer at 60 €: 60 € base, no VAT, 9 € withheld, 51 € to pay', () => {
    const line: InvoiceLineInput = {
      description: 'Sesión',
      unitPriceCents: 6000,
      quantity: 1,
      ...defaultLineTaxes('therapy', 'insurer', general),
    };
    expect(invoiceTotals([line])).toMatchObject({ subtotalCents: 6000, vatCents: 0, withholdingCents: 900, totalCents: 5100 });
  });
});

describe('invoiceLegends', () => {
  it('prints the exemption legend once when any line is exempt', () => {
    expect(invoiceLegends([{ exemption: 'E1' }])).toEqual([VAT_EXEMPT_LEGEND]);
    expect(invoiceLegends([{ exemption: null }, { exemption: 'E1' }, { exemption: 'E1' }])).toEqual([VAT_EXEMPT_LEGEND]);
  });

  it('prints nothing when no line is exempt', () => {
    expect(invoiceLegends([])).toEqual([]);
    expect(invoiceLegends([{ exemption: null }, { exemption: null }])).toEqual([]);
  });

  it('takes whole invoice lines', () => {
    const lines: InvoiceLineInput[] = [
      { description: 'Sesión', unitPriceCents: 6000, quantity: 1, ...defaultLineTaxes('therapy', 'patient', general) },
      { description: 'Informe', unitPriceCents: 15000, quantity: 1, ...defaultLineTaxes('report', 'patient', general) },
    ];
    expect(invoiceLegends(lines)).toEqual([VAT_EXEMPT_LEGEND]);
    expect(invoiceLegends(lines.slice(1))).toEqual([]);
  });
});

describe('resolveLineTaxes: what the therapist chose on the line, the rule for the rest', () => {
  it('follows the kind and the buyer when nothing is chosen', () => {
    expect(resolveLineTaxes({ itemKind: 'therapy' }, 'company', general)).toEqual({ vatRate: 0, exemption: 'E1', withholdingRate: 15 });
    expect(resolveLineTaxes({ itemKind: 'report' }, 'patient', general)).toEqual({ vatRate: 21, exemption: null, withholdingRate: 0 });
  });

  it('a taxed rate chosen on therapy drops the exemption; an exemption chosen on a report means 0 %', () => {
    expect(resolveLineTaxes({ itemKind: 'therapy', vatRate: 21 }, 'patient', general)).toEqual({
      vatRate: 21,
      exemption: null,
      withholdingRate: 0,
    });
    expect(resolveLineTaxes({ itemKind: 'report', exemption: 'E1' }, 'patient', general)).toEqual({
      vatRate: 0,
      exemption: 'E1',
      withholdingRate: 0,
    });
  });

  it('a withholding chosen wins over the therapist’s rate, and 0 over the buyer’s rule', () => {
    expect(resolveLineTaxes({ itemKind: 'therapy', withholdingRate: 7 }, 'professional', general)?.withholdingRate).toBe(7);
    expect(resolveLineTaxes({ itemKind: 'therapy', withholdingRate: 0 }, 'company', general)?.withholdingRate).toBe(0);
  });

  it('refuses an exempt line with a rate above 0', () => {
    expect(resolveLineTaxes({ itemKind: 'therapy', vatRate: 21, exemption: 'E1' }, 'patient', general)).toBeNull();
  });
});

describe('withholdingProblem: only a company, a professional or an insurer withholds', () => {
  it('refuses a rate above 0 for a private buyer, in Spanish, and lets 0 through for anyone', () => {
    for (const kind of ['patient', 'guardian'] as const) {
      expect(withholdingProblem(kind, 15)).toBe(
        'Un particular no practica retención de IRPF: solo se aplica cuando paga una empresa, un profesional o una aseguradora.',
      );
      expect(withholdingProblem(kind, 0)).toBeNull();
    }
    for (const kind of ['company', 'professional', 'insurer'] as const) expect(withholdingProblem(kind, 7)).toBeNull();
  });
});

describe('simplifiedInvoiceProblem: a simplified invoice stops at 400,00 €, VAT included (RD 1619/2012, art. 4)', () => {
  it('lets 400,00 € through without a tax id, refuses 400,01 €, and anything with one', () => {
    expect(simplifiedInvoiceProblem({ baseCents: 40_000, vatCents: 0, buyerTaxId: null })).toBeNull();
    expect(simplifiedInvoiceProblem({ baseCents: 33_058, vatCents: 6_943, buyerTaxId: '' })).toBe(SIMPLIFIED_INVOICE_LIMIT_MESSAGE);
    expect(simplifiedInvoiceProblem({ baseCents: 40_001, vatCents: 0, buyerTaxId: undefined })).toBe(SIMPLIFIED_INVOICE_LIMIT_MESSAGE);
    expect(simplifiedInvoiceProblem({ baseCents: 1_000_000, vatCents: 210_000, buyerTaxId: '11111111H' })).toBeNull();
    expect(SIMPLIFIED_INVOICE_LIMIT_MESSAGE).toMatch(/^Las facturas de más de 400,00 € deben identificar al destinatario con su NIF/);
  });
});
