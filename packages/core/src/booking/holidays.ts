/**
 * Spanish public holidays offered as suggestions for blocked days (issue 14, "a welcome extra"). Only
 * suggestions: the official calendar (BOE and each community's bulletin) moves some every year — a
 * holiday falling on a Sunday may pass to the Monday, some communities swap one for another — so the
 * therapist chooses which to block. National days are those every community keeps; the regional ones
 * are each community's usual days.
 */
import { shiftDay } from '../time/zoned';

export type Holiday = { day: string; name: string; scope: 'national' | 'regional' };

export const SPANISH_REGIONS = {
  AN: 'Andalucía',
  AR: 'Aragón',
  AS: 'Asturias',
  IB: 'Illes Balears',
  CN: 'Canarias',
  CB: 'Cantabria',
  CM: 'Castilla-La Mancha',
  CL: 'Castilla y León',
  CT: 'Cataluña',
  VC: 'Comunitat Valenciana',
  EX: 'Extremadura',
  GA: 'Galicia',
  MD: 'Comunidad de Madrid',
  MC: 'Región de Murcia',
  NC: 'Navarra',
  PV: 'País Vasco',
  RI: 'La Rioja',
  CE: 'Ceuta',
  ML: 'Melilla',
} as const;
export type SpanishRegion = keyof typeof SPANISH_REGIONS;

/** The community of each province, by the first two digits of its postal codes (01 Álava … 52 Melilla). */
const PROVINCES: SpanishRegion[] = [
  'PV',
  'CM',
  'VC',
  'AN',
  'CL',
  'EX',
  'IB',
  'CT',
  'CL',
  'EX',
  'AN',
  'VC',
  'CM',
  'AN',
  'GA',
  'CM',
  'CT',
  'AN',
  'CM',
  'PV',
  'AN',
  'AR',
  'AN',
  'CL',
  'CT',
  'RI',
  'GA',
  'MD',
  'AN',
  'MC',
  'NC',
  'GA',
  'AS',
  'CL',
  'CN',
  'GA',
  'CL',
  'CN',
  'CB',
  'CL',
  'AN',
  'CL',
  'CT',
  'AR',
  'CM',
  'VC',
  'CL',
  'PV',
  'CL',
  'AR',
  'CE',
  'ML',
];

/** The community of a Spanish postal code ('28013' → 'MD'), or null when it is not one. */
export function regionOfZip(zip: string | null | undefined): SpanishRegion | null {
  const m = /^\s*(\d{2})\d{3}\s*$/.exec(zip ?? '');
  const province = m ? Number(m[1]) : 0;
  return province >= 1 && province <= 52 ? PROVINCES[province - 1]! : null;
}

/** Easter Sunday of a Gregorian year, 'YYYY-MM-DD' (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const NATIONAL: [string, string][] = [
  ['01-01', 'Año Nuevo'],
  ['01-06', 'Epifanía del Señor'],
  ['05-01', 'Fiesta del Trabajo'],
  ['08-15', 'Asunción de la Virgen'],
  ['10-12', 'Fiesta Nacional de España'],
  ['11-01', 'Todos los Santos'],
  ['12-06', 'Día de la Constitución'],
  ['12-08', 'Inmaculada Concepción'],
  ['12-25', 'Navidad'],
];

const REGIONAL: Record<SpanishRegion, [string, string][]> = {
  AN: [['02-28', 'Día de Andalucía']],
  AR: [['04-23', 'San Jorge, Día de Aragón']],
  AS: [['09-08', 'Día de Asturias']],
  IB: [['03-01', 'Día de las Illes Balears']],
  CN: [['05-30', 'Día de Canarias']],
  CB: [['09-15', 'La Bien Aparecida']],
  CM: [['05-31', 'Día de Castilla-La Mancha']],
  CL: [['04-23', 'Día de Castilla y León']],
  CT: [
    ['06-24', 'Sant Joan'],
    ['09-11', 'Diada Nacional de Catalunya'],
    ['12-26', 'Sant Esteve'],
  ],
  VC: [
    ['03-19', 'San José'],
    ['10-09', 'Día de la Comunitat Valenciana'],
  ],
  EX: [['09-08', 'Día de Extremadura']],
  GA: [
    ['05-17', 'Día de las Letras Gallegas'],
    ['07-25', 'Día Nacional de Galicia'],
  ],
  MD: [['05-02', 'Fiesta de la Comunidad de Madrid']],
  MC: [['06-09', 'Día de la Región de Murcia']],
  NC: [['12-03', 'San Francisco Javier']],
  PV: [['07-25', 'Santiago Apóstol']],
  RI: [['06-09', 'Día de La Rioja']],
  CE: [['09-02', 'Día de Ceuta']],
  ML: [['09-17', 'Día de Melilla']],
};

/** Holy Thursday is kept everywhere but Cataluña and the Comunitat Valenciana; Easter Monday in these. */
const NO_HOLY_THURSDAY: SpanishRegion[] = ['CT', 'VC'];
const EASTER_MONDAY: SpanishRegion[] = ['CT', 'VC', 'PV', 'NC', 'IB', 'RI'];

/** The year's holidays: the national ones, plus the region's when one is given, by day. */
export function holidaysOf(year: number, region: SpanishRegion | null): Holiday[] {
  const easter = easterSunday(year);
  const out: Holiday[] = NATIONAL.map(([md, name]) => ({ day: `${year}-${md}`, name, scope: 'national' }));
  out.push({ day: shiftDay(easter, -2), name: 'Viernes Santo', scope: 'national' });
  if (region) {
    if (!NO_HOLY_THURSDAY.includes(region)) out.push({ day: shiftDay(easter, -3), name: 'Jueves Santo', scope: 'regional' });
    if (EASTER_MONDAY.includes(region)) out.push({ day: shiftDay(easter, 1), name: 'Lunes de Pascua', scope: 'regional' });
    for (const [md, name] of REGIONAL[region])
      if (!out.some((h) => h.day === `${year}-${md}`)) out.push({ day: `${year}-${md}`, name, scope: 'regional' });
  }
  return out.sort((x, y) => x.day.localeCompare(y.day));
}

/** The holidays from `from` to `to` (both 'YYYY-MM-DD', inclusive), by day. */
export function holidaysBetween(from: string, to: string, region: SpanishRegion | null): Holiday[] {
  const out: Holiday[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) out.push(...holidaysOf(y, region));
  return out.filter((h) => h.day >= from && h.day <= to);
}
