import { DEFAULT_TIME_ZONE } from '@divan/core';
import { createHash } from 'node:crypto';
import { formatAmount, toAeatDate } from './format';

/**
 * The "huella" of VERI*FACTU records, as the AEAT's "Detalle de las especificaciones técnicas para
 * generación de la huella o hash de los registros de facturación" (v0.1.2) defines it:
 * `name=value` pairs in a fixed order joined by `&`, each value trimmed, an absent value written as
 * `name=` alone, the string encoded as UTF-8, SHA-256, uppercase hexadecimal (64 characters).
 */

export type InvoiceType = 'F1' | 'F2' | 'F3' | 'R1' | 'R2' | 'R3' | 'R4' | 'R5';

export type RegistrationFingerprintInput = {
  issuerTaxId: string;
  number: string;
  /** YYYY-MM-DD */
  issueDate: string;
  invoiceType: InvoiceType;
  vatTotalCents: number;
  totalCents: number;
  /** The previous record's fingerprint (same issuer); null for the first record. */
  previousFingerprint: string | null;
  /** ISO 8601 with offset, e.g. 2024-01-01T19:20:30+01:00 (see formatGeneratedAt). */
  generatedAt: string;
};

export type CancellationFingerprintInput = {
  issuerTaxId: string;
  number: string;
  /** YYYY-MM-DD of the cancelled invoice. */
  issueDate: string;
  previousFingerprint: string | null;
  generatedAt: string;
};

/** Field values exactly as they are written in a RegistroAlta (dates DD-MM-YYYY, amounts as text). */
export type RegistrationHashValues = {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
  TipoFactura: string;
  CuotaTotal: string;
  ImporteTotal: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
};

/** Field values exactly as they are written in a RegistroAnulacion. */
export type CancellationHashValues = {
  IDEmisorFacturaAnulada: string;
  NumSerieFacturaAnulada: string;
  FechaExpedicionFacturaAnulada: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
};

// The order of each list is the spec's (§3.a and §3.b), which is also the order of the XSD.
const REGISTRATION_FIELDS = [
  'IDEmisorFactura',
  'NumSerieFactura',
  'FechaExpedicionFactura',
  'TipoFactura',
  'CuotaTotal',
  'ImporteTotal',
  'Huella',
  'FechaHoraHusoGenRegistro',
] as const satisfies readonly (keyof RegistrationHashValues)[];

const CANCELLATION_FIELDS = [
  'IDEmisorFacturaAnulada',
  'NumSerieFacturaAnulada',
  'FechaExpedicionFacturaAnulada',
  'Huella',
  'FechaHoraHusoGenRegistro',
] as const satisfies readonly (keyof CancellationHashValues)[];

function joinFields<T extends Record<string, string>>(names: readonly (keyof T & string)[], values: T): string {
  return names.map((name) => `${name}=${(values[name] ?? '').trim()}`).join('&');
}

/** SHA-256 of the UTF-8 bytes, uppercase hex. */
export function sha256Upper(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}

/** The exact string hashed for a RegistroAlta, from the values as written in the XML. */
export function registrationHashInput(values: RegistrationHashValues): string {
  return joinFields(REGISTRATION_FIELDS, values);
}

/** The exact string hashed for a RegistroAnulacion, from the values as written in the XML. */
export function cancellationHashInput(values: CancellationHashValues): string {
  return joinFields(CANCELLATION_FIELDS, values);
}

const GENERATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const FINGERPRINT = /^[0-9A-F]{64}$/;

function checkChainValues(previousFingerprint: string | null, generatedAt: string): void {
  if (previousFingerprint !== null && !FINGERPRINT.test(previousFingerprint)) {
    throw new RangeError('previousFingerprint must be 64 uppercase hexadecimal characters or null');
  }
  if (!GENERATED_AT.test(generatedAt.trim())) {
    throw new RangeError(`generatedAt must be YYYY-MM-DDTHH:mm:ss±HH:MM, got "${generatedAt}"`);
  }
}

/** The RegistroAlta values our XML writes for a registration (see format.ts for amounts). */
export function registrationValues(r: RegistrationFingerprintInput): RegistrationHashValues {
  checkChainValues(r.previousFingerprint, r.generatedAt);
  return {
    IDEmisorFactura: r.issuerTaxId,
    NumSerieFactura: r.number,
    FechaExpedicionFactura: toAeatDate(r.issueDate),
    TipoFactura: r.invoiceType,
    CuotaTotal: formatAmount(r.vatTotalCents),
    ImporteTotal: formatAmount(r.totalCents),
    Huella: r.previousFingerprint ?? '',
    FechaHoraHusoGenRegistro: r.generatedAt,
  };
}

/** The RegistroAnulacion values our XML writes for a cancellation. */
export function cancellationValues(r: CancellationFingerprintInput): CancellationHashValues {
  checkChainValues(r.previousFingerprint, r.generatedAt);
  return {
    IDEmisorFacturaAnulada: r.issuerTaxId,
    NumSerieFacturaAnulada: r.number,
    FechaExpedicionFacturaAnulada: toAeatDate(r.issueDate),
    Huella: r.previousFingerprint ?? '',
    FechaHoraHusoGenRegistro: r.generatedAt,
  };
}

/** The huella of a registration record (RegistroAlta). */
export function registrationFingerprint(r: RegistrationFingerprintInput): string {
  return sha256Upper(registrationHashInput(registrationValues(r)));
}

const NUMBER_MARK = '\u0001';
const PREVIOUS_MARK = '\u0002';
const GENERATED_MARK = '\u0003';
/** Any FechaHoraHusoGenRegistro that passes the format check: its value is replaced by a mark. */
const ANY_GENERATED_AT = '2000-01-01T00:00:00+01:00';

/**
 * A registration's hashed string cut around the three values only the issuing statement knows (the
 * number, from the series' counter; the previous fingerprint, from the locked chain head; the
 * generation time, taken once that lock is held), for the database to hash: the input is
 * `parts[0] + number + parts[1] + previousFingerprint (or '') + parts[2] + generatedAt + parts[3]`.
 * The fields, their order and format are `registrationHashInput`'s; the caller checks the result with
 * `registrationFingerprint`.
 */
export function registrationHashParts(
  r: Omit<RegistrationFingerprintInput, 'number' | 'previousFingerprint' | 'generatedAt'>,
): [string, string, string, string] {
  const values = registrationValues({ ...r, number: '', previousFingerprint: null, generatedAt: ANY_GENERATED_AT });
  const text = registrationHashInput({
    ...values,
    NumSerieFactura: NUMBER_MARK,
    Huella: PREVIOUS_MARK,
    FechaHoraHusoGenRegistro: GENERATED_MARK,
  });
  const parts = [NUMBER_MARK, PREVIOUS_MARK, GENERATED_MARK].reduce((acc, mark) => acc.flatMap((p) => p.split(mark)), [text]);
  if (parts.length !== 4) throw new RangeError('a registration field holds a control character');
  return parts as [string, string, string, string];
}

/** The huella of a cancellation record (RegistroAnulacion). */
export function cancellationFingerprint(r: CancellationFingerprintInput): string {
  return sha256Upper(cancellationHashInput(cancellationValues(r)));
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormats.set(timeZone, f);
  }
  return f;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * FechaHoraHusoGenRegistro: the wall-clock time of `instant` in `timeZone`, to the second, with
 * that zone's offset at that instant (`2024-01-01T19:20:30+01:00`, `2024-07-01T19:20:30+02:00`).
 */
export function formatGeneratedAt(instant: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('formatGeneratedAt needs a valid Date');
  const seconds = Math.floor(ms / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const p of zoneFormat(timeZone).formatToParts(new Date(seconds))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  // The offset is the wall clock read as UTC minus the instant itself.
  const offsetMinutes = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - seconds) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
