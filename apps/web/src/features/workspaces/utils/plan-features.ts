import { PLAN_FEATURES, PLAN_PRICES, SUPPORT_EMAIL, TEAM_EXTRAS, type Features, type PlanId } from '@divan/core';
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

/** A mail to support about a plan, with the workspace named so nobody has to ask which one. */
export function planMailto(subject: string, workspaceName: string): string {
  const body = `Hola:\n\nQuería hablar del plan de mi espacio «${workspaceName}».\n\n`;
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
