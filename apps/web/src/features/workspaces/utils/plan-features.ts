import { PLAN_FEATURES, PLAN_PRICES, SUPPORT_EMAIL, TEAM_EXTRAS, type Features, type PlanId } from '@divan/core';
import { formatCurrency } from '../../../lib/format'; // relative: the unit tests run without the @ alias

/** One line of a plan: what it gives, and whether Diván does it today (sessions and invoices come later). */
export type FeatureLine = { label: string; soon: boolean };

/** The lines of a plan, read from core's PLAN_FEATURES, so the page and the rules never disagree. */
export function featureLines(f: Features): FeatureLine[] {
  const lines: FeatureLine[] = [
    {
      label:
        f.activePatientLimit === null ? 'Pacientes activos ilimitados' : `Hasta ${f.activePatientLimit} pacientes activos por terapeuta`,
      soon: false,
    },
    { label: 'Historia clínica cifrada, documentos e importación desde Excel', soon: false },
    { label: f.sessionReminders === 1 ? '1 recordatorio por sesión' : `${f.sessionReminders} recordatorios por sesión`, soon: true },
    { label: f.canCreateInvoiceBatch ? 'Facturas automáticas y por lotes' : 'Facturas manuales', soon: true },
  ];
  if (f.canEmbedPublicServices) lines.push({ label: 'Tu agenda de reservas en tu web', soon: false });
  return lines;
}

export function planLines(id: PlanId): FeatureLine[] {
  const lines = featureLines(PLAN_FEATURES[id]);
  return id === 'team' ? [...lines, ...TEAM_EXTRAS.map((label) => ({ label, soon: false }))] : lines;
}

/** "19,00 €" a month (per active user, VAT apart) and the yearly price, or null for Team (price on contact). */
export function priceLines(id: PlanId): { monthly: string; yearly: string } | null {
  const price = PLAN_PRICES[id];
  if (!price) return null;
  return { monthly: formatCurrency(price.monthly), yearly: `o ${formatCurrency(price.yearly)} al año` };
}

/** A mail to support about a plan, with the workspace named so nobody has to ask which one. */
export function planMailto(subject: string, workspaceName: string): string {
  const body = `Hola:\n\nQuería hablar del plan de mi espacio «${workspaceName}».\n\n`;
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
