import { z } from 'zod';
import { textField } from '../fields';
import { msg } from '../messages';
import { normalizePhone } from './phone';

/**
 * The one phone field of every contract: optional, '' clears it (null), anything else is stored as
 * E.164 or refused with "Teléfono inválido".
 */
export const phoneField = () =>
  textField('Teléfono')
    .trim()
    .max(30, { error: msg.maxLength(30) })
    .transform((v, ctx) => {
      if (v === '') return null;
      const e164 = normalizePhone(v);
      if (e164) return e164;
      ctx.addIssue({ code: 'custom', message: msg.invalid('Teléfono') });
      return z.NEVER;
    })
    .meta({ description: 'Teléfono; se guarda en formato E.164 (+34612345678). Sin prefijo, se entiende español.' })
    .nullable()
    .optional();
