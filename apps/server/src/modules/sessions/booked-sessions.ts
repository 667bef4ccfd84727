import { sessionFee, todayIn, type Modality } from '@divan/core';
import type { DbOrTx, Tx } from '../../platform/db/database';
import type { Emit } from '../../platform/events/event-bus';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { SessionsService } from './sessions.service';
import { sessionsRepository } from './sessions.repository';
import type { SessionRow } from './sessions.tables';

/** A session booked on the public page, as the booking module reads it (no clinical field). */
export type BookedSession = Pick<
  SessionRow,
  | 'id'
  | 'workspaceId'
  | 'patientId'
  | 'therapistId'
  | 'startsAt'
  | 'endsAt'
  | 'timeZone'
  | 'status'
  | 'modality'
  | 'locationId'
  | 'publicServiceId'
  | 'price'
> & { location: { name: string; address: string | null } | null };

export type BookSession = {
  workspaceId: string;
  patientId: string;
  therapistId: string;
  serviceId: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  priceCents: number;
  modality: Modality;
  locationId: string | null;
  reminders: number[];
  /** Paid at booking through the payments gateway (the service's payment `pay`). */
  paidAt?: Date;
};

const iso = (d: Date) => d.toISOString();

/**
 * Sessions written by a visitor of the public booking page, who is no member: the booking module
 * proves the right to each write (the mailed code, the manage link) and calls these inside its own
 * transaction, under its per-therapist lock. Each write emits the `session.*` event the calendar, the
 * reminders and the free-slots cache follow, as the sessions service's own writes do.
 */
export class BookedSessions {
  constructor(
    private readonly sessionsService: SessionsService,
    private readonly workspaces: WorkspacesService,
  ) {}

  /** The therapist's taken time in [from, to), in the booking's transaction: sessions not canceled, but `exceptId`. */
  busyOf = (tx: DbOrTx, workspaceId: string, therapistId: string, from: Date, to: Date, exceptId?: string) =>
    sessionsRepository(tx).busyOf(workspaceId, therapistId, from, to, exceptId);

  /** Who takes the money of the therapist's sessions in the workspace (their membership's payments receiver). */
  async receiverOf(db: DbOrTx, workspaceId: string, therapistId: string): Promise<'therapist' | 'workspace'> {
    return (await this.sessionsService.therapistTerms(workspaceId, therapistId, db)).paymentsReceiver;
  }

  /** The patient's sessions booked through the service that have not started yet and are not canceled. */
  async countUpcoming(tx: DbOrTx, workspaceId: string, patientId: string, serviceId: string, now: Date): Promise<number> {
    return sessionsRepository(tx).countUpcomingBooked(workspaceId, patientId, serviceId, now);
  }

  async find(db: DbOrTx, workspaceId: string, id: string): Promise<BookedSession | undefined> {
    const row = await sessionsRepository(db).withPlace(workspaceId, id);
    if (!row) return undefined;
    const { s } = row;
    return {
      id: s.id,
      workspaceId: s.workspaceId,
      patientId: s.patientId,
      therapistId: s.therapistId,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      timeZone: s.timeZone,
      status: s.status,
      modality: s.modality,
      locationId: s.locationId,
      publicServiceId: s.publicServiceId,
      price: s.price,
      location: row.name ? { name: row.name, address: row.address } : null,
    };
  }

  /** A pending session of the service's terms; the therapist's fee and payments receiver as on any session; reminders capped by the plan. */
  async create(tx: Tx, emit: Emit, b: BookSession): Promise<string> {
    const terms = await this.sessionsService.therapistTerms(b.workspaceId, b.therapistId, tx);
    const maxReminders = (await this.workspaces.featuresOf(b.workspaceId, tx)).sessionReminders;
    const row = await sessionsRepository(tx).insert({
      workspaceId: b.workspaceId,
      patientId: b.patientId,
      therapistId: b.therapistId,
      startsAt: b.startsAt,
      endsAt: b.endsAt,
      timeZone: b.timeZone,
      price: b.priceCents,
      fee: sessionFee(b.priceCents, terms.commission),
      paymentsReceiver: terms.paymentsReceiver,
      modality: b.modality,
      locationId: b.modality === 'presential' ? b.locationId : null,
      reminders: b.reminders.slice(0, Math.max(0, maxReminders)),
      videoConference: b.modality === 'online' ? 'own' : null,
      publicServiceId: b.serviceId,
      ...(b.paidAt
        ? {
            paymentStatus: 'paid' as const,
            paymentType: 'stripe_connect' as const,
            paidAt: b.paidAt,
            chargeDate: todayIn(b.timeZone, b.paidAt),
          }
        : {}),
    });
    emit('session.created', {
      workspaceId: b.workspaceId,
      sessionId: row.id,
      patientId: b.patientId,
      therapistId: b.therapistId,
      startsAt: iso(b.startsAt),
      endsAt: iso(b.endsAt),
    });
    return row.id;
  }

  async move(tx: Tx, emit: Emit, s: BookedSession, startsAt: Date, endsAt: Date): Promise<void> {
    const row = await sessionsRepository(tx).update(s.id, { startsAt, endsAt });
    this.sessionsService.emitUpdated(emit, row, true);
  }

  /** A session paid at booking whose money went back (the patient cancelled it). */
  async markRefunded(tx: Tx, emit: Emit, workspaceId: string, sessionId: string): Promise<void> {
    const row = await sessionsRepository(tx).markRefunded(workspaceId, sessionId);
    if (row) this.sessionsService.emitUpdated(emit, row, false);
  }

  /** Canceled by the patient from the manage link. */
  async cancel(tx: Tx, emit: Emit, s: BookedSession, now: Date): Promise<void> {
    await sessionsRepository(tx).update(s.id, { status: 'canceled', cancellationReason: 'patient', canceledAt: now });
    emit('session.canceled', {
      workspaceId: s.workspaceId,
      sessionId: s.id,
      patientId: s.patientId,
      therapistId: s.therapistId,
      startsAt: iso(s.startsAt),
      canceledBy: 'patient',
      reason: 'patient',
    });
  }
}
