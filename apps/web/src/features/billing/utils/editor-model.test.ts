import { describe, expect, it } from 'vitest';
import { bodyOf, emptyModel, lineErrors, liveTotals, modelProblem, parseQuantity, sessionLine, type EditorModel } from './editor-model';

const line = (over: Partial<EditorModel['lines'][number]> = {}): EditorModel['lines'][number] => ({
  key: 'k',
  description: 'Sesión',
  itemKind: 'therapy',
  quantity: '1',
  price: '60',
  sessionId: null,
  vat: 'auto',
  withholding: 'auto',
  ...over,
});

describe('invoice editor model', () => {
  it('reads quantities the Spanish way', () => {
    expect(parseQuantity('1')).toBe(1);
    expect(parseQuantity('1,5')).toBe(1.5);
    expect(parseQuantity('0.25')).toBe(0.25);
    for (const bad of ['0', '', '1,234', '-1', 'dos', '1001']) expect(parseQuantity(bad)).toBeNaN();
  });

  it('says what is wrong with a line', () => {
    expect(lineErrors(line())).toEqual({});
    expect(Object.keys(lineErrors(line({ description: ' ', quantity: '0', price: '' })))).toEqual(['description', 'quantity', 'price']);
    expect(lineErrors(line({ price: '12,345' })).price).toMatch(/importe/);
  });

  it('totals like the server: therapy exempt, a report at 21 %, withholding only for a company', () => {
    const m: EditorModel = {
      ...emptyModel(),
      patient: { id: 'p', name: 'Ana' },
      lines: [line({ price: '62,50' }), line({ itemKind: 'report', price: '100' }), line({ price: 'x' })],
    };
    const t = liveTotals(m, { withholdingRate: 15 });
    expect([t.subtotalCents, t.vatCents, t.withholdingCents, t.totalCents]).toEqual([16250, 2100, 0, 18350]);
    expect(t.lineTotals).toEqual([6250, 12100, null]);
    const company = liveTotals({ ...m, billTo: 'other', buyer: { ...m.buyer, kind: 'company', fullName: 'ACME' } }, { withholdingRate: 7 });
    expect(company.withholdingCents).toBe(1138); // 7 % of 162,50 €: 437,5 + 700 rounded per line
  });

  it('applies the taxes chosen on a line, and sends only those (the rest follow the rule)', () => {
    const base = emptyModel();
    const m: EditorModel = {
      ...base,
      patient: { id: 'p', name: 'Ana' },
      billTo: 'other',
      buyer: { ...base.buyer, kind: 'professional', fullName: 'Gabinete López' },
      lines: [line({ price: '100', vat: '21', withholding: '0' }), line({ itemKind: 'report', price: '100', vat: 'E1', withholding: '7' })],
    };
    const t = liveTotals(m, { withholdingRate: 15 });
    expect([t.vatCents, t.withholdingCents, t.totalCents]).toEqual([2100, 700, 21400]);
    expect(bodyOf(m).lines?.map(({ vatRate, exemption, withholdingRate }) => ({ vatRate, exemption, withholdingRate }))).toEqual([
      { vatRate: 21, exemption: null, withholdingRate: 0 },
      { vatRate: 0, exemption: 'E1', withholdingRate: 7 },
    ]);
  });

  it('never withholds from a private payer: a withholding chosen for a company is neither counted nor sent once the patient pays', () => {
    const m: EditorModel = {
      ...emptyModel(),
      patient: { id: 'p', name: 'Ana' },
      lines: [line({ itemKind: 'report', price: '100', withholding: '15' })],
    };
    const t = liveTotals(m, { withholdingRate: 15 });
    expect([t.vatCents, t.withholdingCents, t.totalCents]).toEqual([2100, 0, 12100]);
    expect(bodyOf(m).lines?.[0]?.withholdingRate).toBeUndefined();
    const guardian = { ...m, billTo: 'other' as const, buyer: { ...m.buyer, kind: 'guardian' as const, fullName: 'Tutor' } };
    expect(bodyOf(guardian).lines?.[0]?.withholdingRate).toBeUndefined();
  });

  it('sends cents, numbers and nulls; the patient pays unless another payer is chosen', () => {
    const m: EditorModel = {
      ...emptyModel('Gracias'),
      patient: { id: 'p1', name: 'Ana' },
      lines: [line({ quantity: '2', price: '1.200,5', sessionId: 's1' })],
    };
    expect(bodyOf(m)).toEqual({
      patientId: 'p1',
      buyer: null,
      lines: [{ description: 'Sesión', itemKind: 'therapy', quantity: 2, unitPriceCents: 120050, sessionId: 's1' }],
      footer: 'Gracias',
    });
    const other = bodyOf({ ...m, billTo: 'other', buyer: { ...m.buyer, kind: 'insurer', fullName: ' Seguros Sol ', taxId: '' } });
    expect(other.buyer).toMatchObject({ kind: 'insurer', fullName: 'Seguros Sol', taxId: null });
  });

  it('refuses a draft without a payer', () => {
    expect(modelProblem(emptyModel())).toMatch(/paciente/);
    expect(modelProblem({ ...emptyModel(), billTo: 'other' })).toMatch(/razón social/);
  });

  it('words a session like the server does', () => {
    expect(sessionLine({ id: 's', day: '2026-03-02', price: 6250, modality: 'online' })).toMatchObject({
      description: 'Sesión de psicoterapia (online) del 02/03/2026',
      price: '62,50',
      sessionId: 's',
    });
  });
});
