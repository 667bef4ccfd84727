import type { ErrorCatalogue } from './catalogue';

/** Statistics (issue 28): the four tabs are Advance's and Team's (spec §1), Basic has the month summary. */
export const analyticsErrors = {
  analytics_not_in_plan: [403, 'Las estadísticas avanzadas están en los planes Premium y Team: cambia de plan para verlas.'],
} as const satisfies ErrorCatalogue;
