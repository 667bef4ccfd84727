import { RETENTION_YEARS } from '@divan/core';
import type { PatientRow } from './patients.tables';

/** The end of the legal retention period: 5 years from the end of treatment or the last activity on the file, whichever is later. */
export function retentionEnd(p: Pick<PatientRow, 'lastActivityAt' | 'treatmentEndDate'>): Date {
  const from = new Date(Math.max(p.lastActivityAt.getTime(), p.treatmentEndDate ? Date.parse(p.treatmentEndDate) : 0));
  from.setUTCFullYear(from.getUTCFullYear() + RETENTION_YEARS);
  return from;
}
