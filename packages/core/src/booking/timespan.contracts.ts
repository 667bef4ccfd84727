/** The Zod schema of a booking timespan (timespan.ts), for the service's minimum and maximum notice. */
import { z } from 'zod';
import { msg } from '../messages';
import { TIMESPAN_MAX, TIMESPAN_UNITS, type TimespanUnit } from './timespan';

/** A timespan of a form; `label` names it in the messages ('Antelación mínima'). */
export const timespanSchema = (label: string) => {
  const invalid = `${label}: cantidad inválida`;
  return z
    .object({
      amount: z.number({ error: invalid }).int({ error: invalid }).min(0, { error: invalid }),
      unit: z.enum(TIMESPAN_UNITS.values as [TimespanUnit, ...TimespanUnit[]], { error: msg.invalidEnum() }),
    })
    .refine((t) => t.amount <= TIMESPAN_MAX[t.unit], { error: `${label}: ${msg.max('1 año').toLowerCase()}`, path: ['amount'] });
};
