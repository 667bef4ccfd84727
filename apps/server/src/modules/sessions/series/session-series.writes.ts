import { canOn, sessionFee, type SessionConflict } from '@divan/core';
import type { z } from 'zod';
import type { updateSessionBody } from '@divan/core';
import type { Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { Emit } from '../../../platform/events/event-bus';
import type { Caller } from '../../../platform/auth/caller';
import type { SeriesFields } from './session-series.tables';
import type { SessionsService } from '../sessions.service';
import type { NewSession, SessionRow } from '../sessions.tables';

/** The row-level pieces of a series write (session-series.service.ts). */
export type Terms = Awaited<ReturnType<SessionsService['therapistTerms']>>;
type Update = z.output<typeof updateSessionBody>;
const iso = (d: Date) => d.toISOString();

/** A restricted therapist touches only their own sessions, also inside a series. */
export function assertOwnsAll(c: Caller, rows: SessionRow[]) {
  if (rows.some((r) => !canOn(c.member.ability, 'update', 'sessions', { ownerId: r.therapistId }))) throw new AppError('access_denied');
}

/** Each therapist's commission and payments receiver, read once per write. */
export function termsCache(sessions: SessionsService, workspaceId: string, tx: Tx) {
  const cache = new Map<string, Promise<Terms>>();
  return (therapistId: string) => {
    if (!cache.has(therapistId)) cache.set(therapistId, sessions.therapistTerms(workspaceId, therapistId, tx));
    return cache.get(therapistId)!;
  };
}

/** A new occurrence's row: the series' fields, the fee and receiver of its therapist, its place in the series. */
export function occurrenceValues(
  c: Caller,
  patientId: string,
  seriesId: string,
  timeZone: string,
  o: { index: number; originalDay: string; start: Date; end: Date; fields: SeriesFields },
  terms: Terms,
): NewSession {
  const f = o.fields;
  return {
    workspaceId: c.member.workspaceId,
    patientId,
    therapistId: f.therapistId,
    startsAt: o.start,
    endsAt: o.end,
    timeZone,
    price: f.price,
    fee: sessionFee(f.price, terms.commission),
    paymentsReceiver: terms.paymentsReceiver,
    modality: f.modality,
    locationId: f.locationId,
    reminders: f.reminders,
    videoConference: f.videoConference,
    createdBy: c.userId,
    seriesId,
    seriesIndex: o.index,
    seriesOriginalDay: o.originalDay,
  };
}

export function emitCreated(emit: Emit, r: SessionRow) {
  emit('session.created', {
    workspaceId: r.workspaceId,
    sessionId: r.id,
    patientId: r.patientId,
    therapistId: r.therapistId,
    startsAt: iso(r.startsAt),
    endsAt: iso(r.endsAt),
  });
}

/** Overlaps of every written session (not canceled) with others, once each. */
export async function conflictsOver(sessions: SessionsService, rows: SessionRow[], tx: Tx): Promise<SessionConflict[]> {
  const seen = new Map<string, SessionConflict>();
  for (const r of rows) {
    if (r.status === 'canceled') continue;
    for (const x of await sessions.conflictsOf(r, tx)) if (!seen.has(x.id)) seen.set(x.id, x);
  }
  return [...seen.values()];
}

export const seriesRefusal = (message: string) => new AppError('invalid_series', [{ path: 'scope', message }], message);

/** The payment fields of an edit, for the one session they belong to. */
export function pickPayment(
  body: Omit<Update, 'scope' | 'recurrence'>,
  row: SessionRow | undefined,
  now: Date,
): Partial<NewSession> | undefined {
  if (!row) return undefined;
  const out: Partial<NewSession> = {};
  if (body.paymentStatus !== undefined) {
    out.paymentStatus = body.paymentStatus;
    out.paidAt = body.paymentStatus === 'paid' ? (row.paidAt ?? now) : null;
  }
  if (body.paymentType !== undefined) out.paymentType = body.paymentType;
  if (body.invoiced !== undefined) out.invoiced = body.invoiced;
  if (body.chargeDate !== undefined) out.chargeDate = body.chargeDate;
  return Object.keys(out).length ? out : undefined;
}
