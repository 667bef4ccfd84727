import { PLAN_LABELS, trialStatus, type Workspace } from '@divan/core';
import { formatDate } from '../../../lib/format';

export type Notice = { text: string; tone: 'info' | 'warning'; dismissible: boolean };

/** What the shell says about the trial or a missing plan (spec §1: days left, last day, ended). */
export function planNotice(ws: Pick<Workspace, 'plan'>, now = new Date()): Notice | null {
  const trial = trialStatus(ws.plan, now);
  if (trial.kind === 'days_left') return { text: `Te quedan ${trial.days} días de prueba`, tone: 'info', dismissible: true };
  if (trial.kind === 'last_day') return { text: 'Hoy es el último día de tu prueba', tone: 'warning', dismissible: true };
  // Once the trial is over without a plan, the reminder stays: the workspace now runs on Basic.
  if (trial.kind === 'ended')
    return {
      text: 'Tu periodo de prueba ha terminado. Tu espacio sigue funcionando con las funciones de Basic.',
      tone: 'warning',
      dismissible: false,
    };
  if (ws.plan.promptUpgrade)
    return { text: 'Este espacio no tiene un plan activo y funciona con las funciones de Basic.', tone: 'warning', dismissible: false };
  return null;
}

/** The plan as the member should read it: its name, and what the trial or the period says. */
export function planSummary(ws: Pick<Workspace, 'plan'>, now = new Date()): { name: string; status: string; badge: string | null } {
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
