import { formatCurrency } from '../../../lib/format';
import type { Commission } from '../api/members-api';

export type CommissionKind = 'none' | Commission['type'];

/** "15", "15,5", "15.50": a Spanish decimal with at most two decimals; null when it isn't one. */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  return Number(t);
}

/**
 * The form's commission as the API wants it: cents for a fixed amount, basis points (1/100 %) for a
 * percentage. Returns an error message instead when the number can't be one.
 */
export function toCommission(kind: CommissionKind, text: string): { commission: Commission | null } | { error: string } {
  if (kind === 'none') return { commission: null };
  const n = parseDecimal(text);
  if (n === null) return { error: kind === 'fixed' ? 'Escribe un importe en euros, por ejemplo 15 o 12,50' : 'Escribe un porcentaje, por ejemplo 30 o 12,5' };
  if (kind === 'percentage' && n > 100) return { error: 'No puede ser mayor de 100 %' };
  return { commission: { type: kind, value: Math.round(n * 100) } };
}

/** Back to what the form shows: "12,50" for 1250 cents, "12,5" for 1250 basis points. */
export function commissionText(c: Commission | null): string {
  if (!c) return '';
  const n = c.value / 100;
  const decimals = c.type === 'fixed' && !Number.isInteger(n) ? 2 : 0;
  return n.toLocaleString('es-ES', { minimumFractionDigits: decimals, maximumFractionDigits: 2, useGrouping: false });
}

export function describeCommission(c: Commission | null): string {
  if (!c) return 'Sin comisión';
  return c.type === 'fixed' ? `${formatCurrency(c.value)} por sesión` : `${commissionText(c)} % por sesión`;
}

export const RECEIVER_LABELS = { therapist: 'Cobra el terapeuta', workspace: 'Cobra el espacio' } as const;
