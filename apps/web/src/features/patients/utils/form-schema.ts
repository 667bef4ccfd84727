import { z } from 'zod';
import { msg } from '@divan/core';
import { dmyToIsoDate } from '../../../lib/format'; // relative: the unit tests run without the @ alias
import { eurosToCents } from '@divan/core';

/** Reports a problem found while converting the form's text, at the field's path. */
export type Flag = (path: PropertyKey[], message: string) => void;

/**
 * A form keeps text as typed (dates DD/MM/YYYY, prices in euros); the API contract from
 * @divan/core judges what it becomes. Its Spanish messages land on the form field at the same
 * path, so the rules live in one place and the form only converts.
 */
export function viaContract<F extends z.ZodType, C extends z.ZodType>(
  form: F,
  toBody: (values: z.output<F>, flag: Flag) => unknown,
  contract: C,
) {
  return form.transform((values, ctx): z.output<C> => {
    let flagged = false;
    const body = toBody(values, (path, message) => {
      flagged = true;
      ctx.addIssue({ code: 'custom', message, path });
    });
    const parsed = contract.safeParse(body);
    if (parsed.success && !flagged) return parsed.data;
    for (const issue of parsed.error?.issues ?? [])
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
    return z.NEVER;
  });
}

/** '' → undefined ("not given"); other text as it is. */
export const orUndefined = <T extends string>(v: T | '') => (v === '' ? undefined : v);
/** '' → null ("clear it"). */
export const orNull = <T extends string>(v: T | '') => (v === '' ? null : v);
export const toIsoDay = (dmy: string) => dmyToIsoDate(dmy);

/** The price field in euros → cents; text that is not an amount is flagged in Spanish. */
export function cents(text: string, flag: Flag, path: PropertyKey[]): number | null | undefined {
  const value = eurosToCents(text);
  if (!Number.isNaN(value)) return value;
  flag(path, msg.invalid('Precio'));
  return undefined;
}

export const todayDmy = () => {
  const d = new Date();
  return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
};
