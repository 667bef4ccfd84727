/** Patient vocabularies of spec §3/§4, with their Spanish labels. */
const labelled = <K extends string>(entries: Record<K, string>) => ({ values: Object.keys(entries) as K[], labels: entries });

export const TREATMENT_STATUS = labelled({ active: 'Activo', paused: 'En pausa', inactive: 'Inactivo' });
export type TreatmentStatus = keyof typeof TREATMENT_STATUS.labels;

export const ENDING_REASON = labelled({
  completed: 'Tratamiento completado',
  abandoned: 'Abandono',
  economic: 'Motivos económicos',
  health: 'Motivos de salud',
  personal: 'Motivos personales',
  professional: 'Motivos profesionales',
  other: 'Otro',
});
export type EndingReason = keyof typeof ENDING_REASON.labels;

export const SESSION_TYPE = labelled({ individual: 'Individual', couple: 'Pareja', family: 'Familiar' });
export type SessionType = keyof typeof SESSION_TYPE.labels;

export const REFERRAL_SOURCE = labelled({
  website: 'Página web',
  social_media: 'Redes sociales',
  friend: 'Amigo o familiar',
  therapist: 'Otro profesional',
  patient: 'Otro paciente',
});
export type ReferralSource = keyof typeof REFERRAL_SOURCE.labels;

export const MODALITY = labelled({ presential: 'Presencial', online: 'Online' });
export type Modality = keyof typeof MODALITY.labels;

export const GENDER = labelled({ female: 'Mujer', male: 'Hombre', other: 'Otro' });
export type Gender = keyof typeof GENDER.labels;

export const TREATMENT_MOTIVE = labelled({
  anxiety: 'Ansiedad',
  depression: 'Depresión',
  mourning: 'Duelo',
  self_esteem: 'Autoestima',
  work_stress: 'Estrés laboral',
  stress: 'Estrés',
  couple: 'Pareja',
  family: 'Familia',
  parenting: 'Crianza',
  insomnia: 'Insomnio',
  ocd: 'TOC',
  panic: 'Ataques de pánico',
  phobias: 'Fobias',
  social_anxiety: 'Ansiedad social',
  trauma: 'Trauma / TEPT',
  addictions: 'Adicciones',
  alcohol: 'Alcohol',
  gambling: 'Juego',
  eating_disorders: 'Trastornos de la conducta alimentaria',
  autism: 'Autismo / TEA',
  adhd: 'TDAH',
  bipolar: 'Trastorno bipolar',
  personality: 'Trastornos de personalidad',
  psychosis: 'Psicosis',
  self_harm: 'Autolesiones',
  suicidal_ideation: 'Ideación suicida',
  emotional_dependence: 'Dependencia emocional',
  anger: 'Gestión de la ira',
  bullying: 'Acoso escolar',
  mobbing: 'Acoso laboral',
  gender_violence: 'Violencia de género',
  sexuality: 'Sexualidad',
  gender_identity: 'Identidad de género',
  chronic_pain: 'Dolor crónico',
  illness: 'Enfermedad',
  learning: 'Dificultades de aprendizaje',
  behaviour: 'Problemas de conducta',
  personal_growth: 'Crecimiento personal',
  other: 'Otro',
});
export type TreatmentMotive = keyof typeof TREATMENT_MOTIVE.labels;

export const INSURANCE_COMPANY = labelled({
  adeslas: 'Adeslas',
  sanitas: 'Sanitas',
  dkv: 'DKV',
  asisa: 'Asisa',
  mapfre: 'Mapfre',
  axa: 'AXA',
  allianz: 'Allianz',
  cigna: 'Cigna',
  generali: 'Generali',
  caser: 'Caser',
  fiatc: 'Fiatc',
  imq: 'IMQ',
  aegon: 'Aegon',
  zurich: 'Zurich',
  nectar: 'Néctar',
  occident: 'Occident',
  santalucia: 'Santalucía',
  catalana_occidente: 'Catalana Occidente',
  divina_pastora: 'Divina Pastora',
  hna: 'HNA',
  muface: 'MUFACE',
  mugeju: 'MUGEJU',
  isfas: 'ISFAS',
  agrupacio: 'Agrupació',
  assistencia_sanitaria: 'Assistència Sanitària',
  cosalud: 'Cosalud',
  previsora_general: 'Previsora General',
  plus_ultra: 'Plus Ultra',
  helvetia: 'Helvetia',
  reale: 'Reale',
  vivaz: 'Vivaz',
  antares: 'Antares',
  mgc: 'MGC Mutua',
  mutua_madrilena: 'Mutua Madrileña',
  ima: 'IMA',
  other: 'Otra',
});
export type InsuranceCompany = keyof typeof INSURANCE_COMPANY.labels;

/** Retention of clinical records: 5 years after the last activity (spec issue 4, Ley 41/2002). */
export const RETENTION_YEARS = 5;
export const DOCUMENT_MAX_MB = 20;
export const DOCUMENT_MAX_BYTES = DOCUMENT_MAX_MB * 1024 * 1024;
export const PATIENT_PAGE_SIZE_MAX = 100;
export const IMPORT_MAX_ROWS = 10_000;

/** Accent- and case-insensitive form used for search and label matching. */
export const normalizeText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** The key whose Spanish label (or key) matches the text, ignoring case and accents. */
export function matchLabel<K extends string>(vocab: { values: K[]; labels: Record<K, string> }, text: string): K | undefined {
  const n = normalizeText(text);
  return vocab.values.find((k) => normalizeText(vocab.labels[k]) === n || k === n);
}
