import { describe, expect, it } from 'vitest';
import type { CompanionConsent, CompanionInvoice } from '@divan/core';
import {
  brandName,
  cardExpired,
  cardExpiry,
  consentBadge,
  consentsInOrder,
  formatDay,
  invoiceBadge,
  invoicesInOrder,
  returnNoticeOf,
} from './billing-format';

const consent = (id: string, status: CompanionConsent['status']): CompanionConsent => ({
  id,
  title: `Doc ${id}`,
  status,
  sentAt: '2026-11-01T10:00:00.000Z',
  signedAt: null,
  completedAt: null,
  expiresAt: '2026-11-15T10:00:00.000Z',
  canDownload: status === 'signed',
});

const invoice = (id: string, over: Partial<CompanionInvoice> = {}): CompanionInvoice => ({
  id,
  number: `A-${id}`,
  issueDate: '2026-11-03',
  kind: 'ordinary',
  status: 'issued',
  sellerName: 'Lucía',
  totalCents: 6000,
  paymentStatus: 'pending',
  paidAt: null,
  amountDueCents: 6000,
  payable: true,
  ...over,
});

describe('consents', () => {
  it('puts what waits for the patient first, then what waits for others, keeping the server order within each', () => {
    const items = [
      consent('1', 'signed'),
      consent('2', 'to_sign'),
      consent('3', 'waiting'),
      consent('4', 'expired'),
      consent('5', 'to_sign'),
    ];
    expect(consentsInOrder(items).map((c) => c.id)).toEqual(['2', '5', '3', '1', '4']);
  });
  it('labels each state in Spanish, the one to sign highlighted', () => {
    expect(consentBadge({ status: 'to_sign' })).toEqual({ label: 'Pendiente de firmar', tone: 'pending' });
    expect(consentBadge({ status: 'signed' })).toEqual({ label: 'Firmado', tone: 'done' });
    expect(consentBadge({ status: 'revoked' })).toEqual({ label: 'Anulado', tone: 'muted' });
  });
});

describe('invoices', () => {
  it('lists those with something to pay first', () => {
    const items = [
      invoice('1', { paymentStatus: 'paid', amountDueCents: 0 }),
      invoice('2'),
      invoice('3', { status: 'voided', amountDueCents: 0 }),
      invoice('4'),
    ];
    expect(invoicesInOrder(items).map((i) => i.id)).toEqual(['2', '4', '1', '3']);
  });
  it('says pending, paid, refunded or voided', () => {
    expect(invoiceBadge(invoice('1'))).toEqual({ label: 'Pendiente de pago', tone: 'pending' });
    expect(invoiceBadge(invoice('1', { paymentStatus: 'paid' }))).toEqual({ label: 'Pagada', tone: 'done' });
    expect(invoiceBadge(invoice('1', { paymentStatus: 'refunded' })).label).toBe('Devuelta');
    expect(invoiceBadge(invoice('1', { status: 'voided' })).label).toBe('Anulada');
    expect(invoiceBadge(invoice('1', { kind: 'rectifying' })).label).toBe('Rectificativa');
  });
  it('writes an issue day as DD/MM/YYYY whatever the time zone', () => {
    expect(formatDay('2026-01-05')).toBe('05/01/2026');
  });
});

describe('card', () => {
  it('names brands and writes the expiry as MM/AA', () => {
    expect(brandName('visa')).toBe('Visa');
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('maestro')).toBe('Maestro');
    expect(brandName('unknown')).toBe('Tarjeta');
    expect(cardExpiry({ expMonth: 3, expYear: 2027 })).toBe('03/27');
  });
  it('counts a card valid through the last day of its month', () => {
    const now = new Date(2026, 10, 30);
    expect(cardExpired({ expMonth: 11, expYear: 2026 }, now)).toBe(false);
    expect(cardExpired({ expMonth: 10, expYear: 2026 }, now)).toBe(true);
    expect(cardExpired({ expMonth: 1, expYear: 2027 }, now)).toBe(false);
  });
});

describe('coming back from a checkout', () => {
  it("reads the server's ?estado= and nothing else", () => {
    expect(returnNoticeOf('?estado=pagado')).toBe('pagado');
    expect(returnNoticeOf('?estado=tarjeta&x=1')).toBe('tarjeta');
    expect(returnNoticeOf('?estado=otro')).toBeNull();
    expect(returnNoticeOf('')).toBeNull();
  });
});
