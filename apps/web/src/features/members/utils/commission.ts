import { sessionFee, workspaceCut } from '@divan/core';
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
  if (n === null)
    return {
      error: kind === 'fixed' ? 'Escribe un importe en euros, por ejemplo 15 o 12,50' : 'Escribe un porcentaje, por ejemplo 30 o 12,5',
    };
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

/** What the members list says: whose share the number is, so 30 % never reads as the therapist's pay. */
export function describeCommission(c: Commission | null): string {
  if (!c) return 'Sin comisión del espacio';
  return `El espacio se queda ${c.type === 'fixed' ? formatCurrency(c.value) : `el ${commissionText(c)} %`} por sesión`;
}

/** The session price of the dialog's worked example. */
export const EXAMPLE_PRICE_CENTS = 7000;

/**
 * The dialog's worked example, from what is being typed, with the rule that computes every session's fee:
 * «De una sesión de 70,00 €: 49,00 € para el terapeuta y 21,00 € para el espacio». Null while the text is
 * not an amount.
 */
export function commissionExample(kind: CommissionKind, text: string, priceCents = EXAMPLE_PRICE_CENTS): string | null {
  if (kind === 'none')
    return `De una sesión de ${formatCurrency(priceCents)}: todo para el terapeuta; el espacio no se queda nada y no hay nada que liquidar entre ellos.`;
  const typed = toCommission(kind, text);
  if ('error' in typed || !typed.commission) return null;
  const cut = workspaceCut(priceCents, typed.commission);
  return `De una sesión de ${formatCurrency(priceCents)}: ${formatCurrency(sessionFee(priceCents, typed.commission)!)} para el terapeuta y ${formatCurrency(cut)} para el espacio.`;
}

export const RECEIVER_LABELS = { therapist: 'Cobra el terapeuta', workspace: 'Cobra el espacio' } as const;

/** Who owes whom when each one collects (the fee balance's rule), said under the choice. */
export const RECEIVER_HINTS = {
  therapist: 'El terapeuta cobra las sesiones (las facturas salen a su nombre) y debe al espacio su comisión.',
  workspace: 'El espacio cobra las sesiones (las facturas salen a su nombre) y debe al terapeuta su parte.',
} as const;
