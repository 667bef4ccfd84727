import type { SavedCard } from '@divan/core';
import { formatDate, formatTime } from '../../../../lib/format';

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

/** Stripe's brand code as people write it ("visa" → "Visa"); an unknown one, as a card. */
export const brandName = (brand: string) =>
  BRANDS[brand.toLowerCase()] ??
  (brand && brand !== 'card' && brand !== 'unknown' ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Tarjeta');

/** "07/28" (month and two-digit year), or "—" when Stripe did not say. */
export const expiryOf = (card: Pick<SavedCard, 'expMonth' | 'expYear'>) =>
  card.expMonth >= 1 && card.expMonth <= 12 && card.expYear > 0
    ? `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`
    : '—';

/** "12/05/2026 a las 10:30". */
export const untilText = (iso: string) => `${formatDate(iso)} a las ${formatTime(iso)}`;
