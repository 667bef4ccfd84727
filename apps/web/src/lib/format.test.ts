import { afterAll, describe, expect, it, vi } from 'vitest';
import { format, isValid, parse, parseISO } from 'date-fns';
import { es } from 'date-fns/locale/es';

// The helpers replaced date-fns to keep it out of the shell: they must say exactly what it said.
const dateFns = {
  formatDate: (v: Date | string | null | undefined) => {
    if (!v) return '';
    const d = typeof v === 'string' ? parseISO(v) : v;
    return isValid(d) ? format(d, 'dd/MM/yyyy') : '';
  },
  formatTime: (v: Date | string) => {
    const d = typeof v === 'string' ? parseISO(v) : v;
    return isValid(d) ? format(d, 'HH:mm') : '';
  },
  formatLongDate: (d: Date) => {
    const text = format(d, "EEEE, d 'de' MMMM 'de' yyyy", { locale: es });
    return text.charAt(0).toUpperCase() + text.slice(1);
  },
  dmyToIsoDate: (text: string) => {
    const t = text.trim();
    if (!t) return '';
    const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
    if (!m) return t;
    const date = parse(`${m[1]!.padStart(2, '0')}/${m[2]!.padStart(2, '0')}/${m[3]}`, 'dd/MM/yyyy', new Date(2000, 0, 1));
    return isValid(date) ? format(date, 'yyyy-MM-dd') : t;
  },
};

const instants = [
  '2025-11-22T10:05:00.000Z',
  '2025-03-30T00:59:59.000Z', // Madrid switches to summer time at 01:00 UTC
  '2025-03-30T01:00:00.000Z',
  '2025-10-26T00:30:00.000Z',
  '2024-12-31T23:30:00.000Z', // already next year in Madrid
  '2025-06-01T12:00:00+02:00',
  '2025-06-01T07:03:00',
  'no es una fecha',
  '',
];
const days = ['2025-01-05', '1985-03-15', '2024-02-29', '2025-02-29', '2025-13-01', '1900-12-31'];
const typed = [
  '15/03/1985',
  '5/3/1985',
  '05-03-1985',
  '5.3.1985',
  '31/02/1985',
  '29/02/2024',
  '29/02/2023',
  '00/01/2020',
  '01/13/2020',
  '32/01/2020',
  '1/1/0001',
  ' 07/07/2007 ',
  '2020-01-01',
  'ayer',
  '',
];

const originalTz = process.env.TZ;
afterAll(() => {
  process.env.TZ = originalTz;
});

describe.each(['Europe/Madrid', 'Atlantic/Canary', 'America/New_York', 'Asia/Tokyo', 'UTC'])('lib/format in %s', (tz) => {
  const load = async () => {
    process.env.TZ = tz;
    vi.resetModules();
    return import('./format');
  };

  it('formats instants and calendar days like date-fns', async () => {
    const f = await load();
    for (const v of [...instants, ...days, null, undefined]) expect([v, f.formatDate(v)]).toEqual([v, dateFns.formatDate(v)]);
    for (const v of [...instants, ...days].filter(Boolean)) expect([v, f.formatTime(v)]).toEqual([v, dateFns.formatTime(v)]);
    for (const v of instants.slice(0, 6)) expect(f.formatLongDate(new Date(v))).toBe(dateFns.formatLongDate(new Date(v)));
  });

  it('reads DD/MM/YYYY like date-fns', async () => {
    const f = await load();
    for (const t of typed) expect([t, f.dmyToIsoDate(t)]).toEqual([t, dateFns.dmyToIsoDate(t)]);
  });
});

describe('lib/format', () => {
  it('writes Spanish dates', async () => {
    process.env.TZ = 'Europe/Madrid';
    vi.resetModules();
    const f = await import('./format');
    expect(f.formatDate('2025-01-05')).toBe('05/01/2025');
    expect(f.formatTime('2025-01-05T08:07:00.000Z')).toBe('09:07');
    expect(f.formatLongDate(new Date(2025, 10, 22))).toBe('Sábado, 22 de noviembre de 2025');
    expect(f.dmyToIsoDate('5/3/1985')).toBe('1985-03-05');
    expect(f.dmyToIsoDate('31/02/1985')).toBe('31/02/1985');
  });

  it('reads a calendar day as that day west of Greenwich too', async () => {
    process.env.TZ = 'America/New_York';
    vi.resetModules();
    const f = await import('./format');
    expect(f.formatTime('2025-01-05T08:07:00.000Z')).toBe('03:07');
    expect(f.formatDate('2025-01-05')).toBe('05/01/2025');
  });

  it('writes euros from cents with the thousands dot from four digits', async () => {
    const f = await import('./format');
    expect(f.formatCurrency(0)).toBe('0,00\u00a0€');
    expect(f.formatCurrency(6250)).toBe('62,50\u00a0€');
    expect(f.formatCurrency(123456)).toBe('1.234,56\u00a0€');
    expect(f.formatCurrency(-123456)).toBe('-1.234,56\u00a0€');
    expect(() => f.formatCurrency(12.5)).toThrow(RangeError);
  });
});
