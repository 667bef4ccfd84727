import { trialStatus, type Workspace } from '@divan/core';

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
