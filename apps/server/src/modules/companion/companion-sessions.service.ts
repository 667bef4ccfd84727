import type { CompanionSession, CompanionSessions, CompanionSessionsQuery, PublicSlots, PublicSlotsQuery } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { BookingManageService } from '../booking/booking-manage.service';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import type { OwnSession, PatientOwnSessions } from '../sessions/patient-own-sessions';
import type { UsersService } from '../users/users.service';

/** The booking module's manage logic keyed by session (given at wiring). */
export type SessionBookings = Pick<BookingManageService, 'ofSession' | 'slotsForSession' | 'cancelSession' | 'moveSession'>;

export type CompanionSessionsDeps = {
  accounts: Pick<PatientAccountsService, 'liveFileOf'>;
  own: PatientOwnSessions;
  bookings: SessionBookings;
  users: UsersService;
  /** The patient's link to the video room of an online session held in Diván (MeetService.patientLink). */
  meetLink: (s: { id: string }) => string;
  clock?: () => Date;
};

/**
 * The patient's sessions in their own account (issue 15): read on a connected, live file only. A session
 * booked from a public booking service may be canceled or moved to another free slot of that service
 * until its minimum notice, through the booking module's manage logic (as the mailed link does); any
 * other session is read only.
 */
export class CompanionSessionsService {
  constructor(private readonly d: CompanionSessionsDeps) {}

  async list(accountId: string, patientFileId: string, q: CompanionSessionsQuery): Promise<CompanionSessions> {
    const f = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const { items, total } = await this.d.own.page(f.workspaceId, patientFileId, q.when, q.page, q.pageSize, this.now());
    return { items: await this.present(items), total, page: q.page, pageSize: q.pageSize };
  }

  async get(accountId: string, patientFileId: string, sessionId: string): Promise<CompanionSession> {
    const s = await this.find(accountId, patientFileId, sessionId);
    return (await this.present([s]))[0]!;
  }

  async slots(accountId: string, patientFileId: string, sessionId: string, q: PublicSlotsQuery): Promise<PublicSlots> {
    const s = await this.changeable(accountId, patientFileId, sessionId, 'move');
    return this.closedAs(() => this.d.bookings.slotsForSession(s.workspaceId, s.id, q));
  }

  async cancel(accountId: string, patientFileId: string, sessionId: string): Promise<CompanionSession> {
    const s = await this.changeable(accountId, patientFileId, sessionId, 'cancel');
    await this.closedAs(() => this.d.bookings.cancelSession(s.workspaceId, s.id));
    return this.get(accountId, patientFileId, sessionId);
  }

  async move(accountId: string, patientFileId: string, sessionId: string, startsAt: string): Promise<CompanionSession> {
    const s = await this.changeable(accountId, patientFileId, sessionId, 'move');
    await this.closedAs(() => this.d.bookings.moveSession(s.workspaceId, s.id, startsAt));
    return this.get(accountId, patientFileId, sessionId);
  }

  private now = () => this.d.clock?.() ?? new Date();

  private async find(accountId: string, patientFileId: string, sessionId: string): Promise<OwnSession> {
    const f = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const s = await this.d.own.find(f.workspaceId, patientFileId, sessionId);
    if (!s) throw new AppError('therapy_session_not_found');
    return s;
  }

  /** The session, when it was booked from a service and may still be changed (moved: its service still active). */
  private async changeable(accountId: string, patientFileId: string, sessionId: string, what: 'cancel' | 'move'): Promise<OwnSession> {
    const s = await this.find(accountId, patientFileId, sessionId);
    const b = await this.d.bookings.ofSession(s.workspaceId, s.id);
    if (!b) throw new AppError('companion_session_not_changeable');
    if (!b.canCancel) throw new AppError('companion_session_change_closed');
    if (what === 'move' && !b.canMove) throw new AppError('public_service_not_found');
    return s;
  }

  /** The window closing between the check and the write reads as from here, not as from the mailed link. */
  private async closedAs<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof AppError && e.code === 'public_booking_change_closed') throw new AppError('companion_session_change_closed');
      throw e;
    }
  }

  private async present(rows: OwnSession[]): Promise<CompanionSession[]> {
    const users = await this.d.users.findManyByIds([...new Set(rows.map((r) => r.therapistId))]);
    const names = new Map(users.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ')]));
    return Promise.all(
      rows.map(async (s) => {
        const b = s.publicServiceId ? await this.d.bookings.ofSession(s.workspaceId, s.id) : null;
        const online = s.modality === 'online';
        return {
          id: s.id,
          startsAt: s.startsAt.toISOString(),
          endsAt: s.endsAt.toISOString(),
          timeZone: s.timeZone,
          status: s.status,
          modality: s.modality,
          location: online ? null : s.location,
          therapistName: names.get(s.therapistId) ?? '',
          videoLink: online && s.videoConference === 'own' && s.status !== 'canceled' ? this.d.meetLink(s) : null,
          service: b?.service ?? null,
          canCancel: b?.canCancel ?? false,
          canMove: b?.canMove ?? false,
          changeableUntil: b?.changeableUntil?.toISOString() ?? null,
          payment: b?.payment ?? null,
        };
      }),
    );
  }
}
