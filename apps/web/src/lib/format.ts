import { format, isValid, parse, parseISO } from 'date-fns';
import { es } from 'date-fns/locale/es';

/** Spain's formats (spec §1): DD/MM/YYYY, HH:mm, euro. */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '';
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? format(date, 'dd/MM/yyyy') : '';
}

export function formatTime(value: Date | string): string {
  const date = typeof value === 'string' ? parseISO(value) : value;
  return isValid(date) ? format(date, 'HH:mm') : '';
}

/** "sábado, 22 de noviembre de 2025" with the first letter in upper case, for headings. */
export function formatLongDate(date: Date): string {
  const text = format(date, "EEEE, d 'de' MMMM 'de' yyyy", { locale: es });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const euro = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' });
/** Money travels as integer cents. */
export function formatCurrency(cents: number): string {
  return euro.format(cents / 100);
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY' ('' when empty). */
export function isoDateToDmy(iso: string | null | undefined): string {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}/${m}/${y}` : '';
}

/**
 * 'DD/MM/YYYY' (also D/M/YYYY, with - or .) → 'YYYY-MM-DD'. Returns '' for empty input and the raw text
 * when it isn't a real calendar date, so the shared schema rejects it with its own message.
 */
export function dmyToIsoDate(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
  if (!match) return trimmed;
  const [, d = '', m = '', y = ''] = match;
  const date = parse(`${d.padStart(2, '0')}/${m.padStart(2, '0')}/${y}`, 'dd/MM/yyyy', new Date(2000, 0, 1));
  return isValid(date) ? format(date, 'yyyy-MM-dd') : trimmed;
}
