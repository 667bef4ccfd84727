// The workspace's plan as a member reads it on Ajustes › Espacio › Plan, from GET /workspaces (moved here with
// the screen: features/workspaces may not be imported from here, ARCHITECTURE.md).
import { PLAN_LABELS, trialStatus, type Workspace } from '@divan/core';
import { formatDate } from '../../../lib/format'; // relative: the unit tests run without the @ alias

/** The plan card's heading without a bought plan: its name, and what the trial or the period says. */
export function planSummaryOf(ws: Pick<Workspace, 'plan'>, now = new Date()): { name: string; status: string; badge: string | null } {
  const { plan } = ws;
  const trial = trialStatus(plan, now);
  if (plan.id) {
    const end = plan.periodEnd ? formatDate(plan.periodEnd) : null;
    const status = end ? (plan.renovationEnabled ? `Se renueva el ${end}.` : `Activo hasta el ${end}; no se renovará.`) : 'Plan activo.';
    return { name: PLAN_LABELS[plan.id], status, badge: null };
  }
  const trialEnd = plan.freeTrialEnd ? formatDate(plan.freeTrialEnd) : '';
  if (trial.kind === 'days_left')
    return {
      name: 'Prueba gratuita',
      status: `Te quedan ${trial.days} días de prueba (hasta el ${trialEnd}), con las funciones de Premium.`,
      badge: 'En prueba',
    };
  if (trial.kind === 'last_day') return { name: 'Prueba gratuita', status: 'Hoy es el último día de tu prueba.', badge: 'Último día' };
  if (trial.kind === 'ended')
    return {
      name: 'Sin plan',
      status: `Tu periodo de prueba ha terminado (${trialEnd}). El espacio funciona con las funciones de Basic.`,
      badge: 'Prueba terminada',
    };
  return { name: 'Sin plan', status: 'El espacio funciona con las funciones de Basic.', badge: null };
}
