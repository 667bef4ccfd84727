import { describe, expect, it } from 'vitest';
import { nextInvoiceNumbers, nextInvoiceText } from './invoice-series';

const issued = {
  year: 2026,
  counters: [
    { kind: 'ordinary' as const, prefix: '', last: 1 },
    { kind: 'ordinary' as const, prefix: 'F-', last: 7 },
  ],
};

describe('the next invoice numbers', () => {
  it('after 2026-0001 is issued, says 2026-0002, not «se numerarán 2026-0001»', () => {
    expect(nextInvoiceText('', issued, 'mine')).toBe('Tu próxima factura será la 2026-0002 (rectificativa: R2026-0001).');
    expect(nextInvoiceText('', { year: 2026, counters: [] }, 'workspace')).toBe(
      'La próxima factura del espacio será la 2026-0001 (rectificativa: R2026-0001).',
    );
  });
  it('a new prefix starts at 1; an old one carries on where it stopped; an invalid one says nothing', () => {
    expect(nextInvoiceNumbers('g-', issued)).toEqual({ ordinary: 'G-2026-0001', rectifying: 'RG-2026-0001' });
    expect(nextInvoiceNumbers(' f- ', issued)).toEqual({ ordinary: 'F-2026-0008', rectifying: 'RF-2026-0001' });
    expect(nextInvoiceNumbers('R', issued)).toBeNull();
  });
});
