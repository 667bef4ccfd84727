import { PLAN_FEATURES, PLAN_PRICES, TEAM_EXTRAS, unitPriceOf, type BillingInterval, type Features, type PlanId } from '@divan/core';
import { formatCurrency } from '../../../lib/format'; // relative: the unit tests run without the @ alias

/** One line of a plan: what it gives. */
export type FeatureLine = { label: string };

/** The lines of a plan, read from core's PLAN_FEATURES, so the page and the rules never disagree. */
export function featureLines(f: Features): FeatureLine[] {
  const lines: FeatureLine[] = [
    {
      label:
        f.activePatientLimit === null ? 'Pacientes activos ilimitados' : `Hasta ${f.activePatientLimit} pacientes activos por terapeuta`,
    },
    { label: 'Historia clínica cifrada, documentos e importación desde Excel' },
    { label: f.sessionReminders === 1 ? '1 recordatorio por sesión' : `${f.sessionReminders} recordatorios por sesión` },
    { label: f.canCreateInvoiceBatch ? 'Facturas automáticas y por lotes' : 'Facturas manuales' },
  ];
  if (f.canEmbedPublicServices) lines.push({ label: 'Tu agenda de reservas en tu web' });
  return lines;
}

export function planLines(id: PlanId): FeatureLine[] {
  const lines = featureLines(PLAN_FEATURES[id]);
  return id === 'team' ? [...lines, ...TEAM_EXTRAS.map((label) => ({ label }))] : lines;
}

/** "19,00 €" a month (per active user, VAT apart) and the yearly price, or null for Team (price on contact). */
export function priceLines(id: PlanId): { monthly: string; yearly: string } | null {
  const price = PLAN_PRICES[id];
  if (!price) return null;
  return { monthly: formatCurrency(price.monthly), yearly: `o ${formatCurrency(price.yearly)} al año` };
}

/**
 * The price of a plan for the interval chosen on /plans: the amount («190,00 €»), what it is for («al año por
 * usuario + IVA») and the other interval beside it («o 19,00 € al mes»); null for Team (price on contact).
 */
export function intervalPriceLines(id: PlanId, interval: BillingInterval): { amount: string; per: string; other: string } | null {
  const lines = priceLines(id);
  const unit = unitPriceOf(id, interval);
  if (!lines || unit === null) return null;
  return interval === 'month'
    ? { amount: lines.monthly, per: 'al mes por usuario + IVA', other: lines.yearly }
    : { amount: formatCurrency(unit), per: 'al año por usuario + IVA', other: `o ${lines.monthly} al mes` };
}
