import {
  BOOKING_SERVICES_MAX,
  bookingErrorMessages,
  type BookingService,
  bookingServiceProblems,
  canOn,
  type CreateBookingServiceBody,
  scopeFor,
  type UpdateBookingServiceBody,
  type WorkspaceLocation,
} from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { LocationsService } from '../sessions/locations.service';
import type { UsersService } from '../users/users.service';
import { bookingRepository, type NewBookingService } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';

type Create = Omit<NewBookingService, 'id' | 'workspaceId' | 'therapistId' | 'createdAt' | 'updatedAt'>;
const notFound = () => new AppError('public_service_not_found', undefined, bookingErrorMessages.serviceNotFound);
const fullName = (u: { firstName: string; lastName: string | null }) => [u.firstName, u.lastName].filter(Boolean).join(' ');
const duplicateTitle = (err: unknown) =>
  (err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * A therapist's booking services (spec §3, `/calendar/services`; subject `public_services`, owned by
 * the therapist). The §5 rules run in core on the service as it would be saved; a title is unique per
 * therapist (`public_service_exists`) and a therapist keeps at most BOOKING_SERVICES_MAX of them.
 */
export class BookingServicesService {
  private changed: (workspaceId: string) => void = () => {};
  /** Told after every committed change (public booking's cached slots). */
  onChange(fn: (workspaceId: string) => void) {
    this.changed = fn;
  }

  constructor(private readonly d: { db: Db; users: UsersService; locations: LocationsService }) {}

  /** An active service at this path (workspace, therapist), or `public_service_not_found`: nothing is learnt of others (the public flow). */
  async active(ids: { workspaceId: string; therapistId?: string; serviceId: string }): Promise<BookingServiceRow> {
    const service = await bookingRepository(this.d.db).service(ids.workspaceId, ids.serviceId);
    if (!service || (ids.therapistId && service.therapistId !== ids.therapistId) || service.status !== 'active')
      throw new AppError('public_service_not_found');
    return service;
  }

  async list(c: Caller, therapistId?: string): Promise<BookingService[]> {
    const scope = scopeFor(c.member.ability, 'read', 'public_services', c.userId);
    if (scope.kind === 'none') throw new AppError('access_denied');
    return this.present(c.member.workspaceId, await bookingRepository(this.d.db).services(c.member.workspaceId, scope, therapistId));
  }

  async get(c: Caller, id: string): Promise<BookingService> {
    return (await this.present(c.member.workspaceId, [await this.accessible(c, id, 'read')]))[0]!;
  }

  async create(c: Caller, body: CreateBookingServiceBody): Promise<BookingService> {
    if (!canOn(c.member.ability, 'create', 'public_services', { ownerId: c.userId })) throw new AppError('access_denied');
    const ws = c.member.workspaceId;
    const values = body as Create;
    await this.assertLocation(ws, values.locationId ?? null);
    const row = await this.d.db.transaction(async (tx) => {
      const repo = bookingRepository(tx);
      if ((await repo.countServices(ws, c.userId)) >= BOOKING_SERVICES_MAX)
        throw new AppError('public_service_limit_reached', undefined, bookingErrorMessages.servicesLimit(BOOKING_SERVICES_MAX));
      return repo.insertService({ ...values, workspaceId: ws, therapistId: c.userId }).catch((err: unknown) => {
        throw duplicateTitle(err) ? titleTaken() : err;
      });
    });
    this.changed(ws);
    return (await this.present(ws, [row]))[0]!;
  }

  async update(c: Caller, id: string, body: UpdateBookingServiceBody): Promise<BookingService> {
    const current = await this.accessible(c, id, 'update');
    const merged = { ...current, ...body } as BookingServiceRow;
    const problems = bookingServiceProblems(merged);
    if (problems.length)
      throw new AppError(
        'invalid_argument',
        problems.map(({ path, message }) => ({ path, message })),
      );
    if (body.locationId !== undefined) await this.assertLocation(current.workspaceId, body.locationId);
    const row = await bookingRepository(this.d.db)
      .updateService(current.workspaceId, id, body as Partial<Create>)
      .catch((err: unknown) => {
        throw duplicateTitle(err) ? titleTaken() : err;
      });
    if (!row) throw notFound();
    this.changed(row.workspaceId);
    return (await this.present(row.workspaceId, [row]))[0]!;
  }

  async delete(c: Caller, id: string): Promise<void> {
    const current = await this.accessible(c, id, 'delete');
    if (!(await bookingRepository(this.d.db).deleteService(current.workspaceId, id))) throw notFound();
    this.changed(current.workspaceId);
  }

  /** The service if the caller may `action` it; one they may not even read is a 404 (nothing learnt). */
  private async accessible(c: Caller, id: string, action: 'read' | 'update' | 'delete'): Promise<BookingServiceRow> {
    const row = await bookingRepository(this.d.db).service(c.member.workspaceId, id);
    if (!row || !canOn(c.member.ability, 'read', 'public_services', { ownerId: row.therapistId })) throw notFound();
    if (!canOn(c.member.ability, action, 'public_services', { ownerId: row.therapistId })) throw new AppError('access_denied');
    return row;
  }

  private async assertLocation(workspaceId: string, locationId: string | null) {
    if (locationId && !(await this.d.locations.list(workspaceId)).some((l) => l.id === locationId))
      throw new AppError('location_not_found', [{ path: 'locationId', message: 'Ubicación no encontrada' }]);
  }

  private async present(workspaceId: string, rows: BookingServiceRow[]): Promise<BookingService[]> {
    if (!rows.length) return [];
    const [users, places] = await Promise.all([
      this.d.users.findManyByIds([...new Set(rows.map((r) => r.therapistId))]),
      this.d.locations.list(workspaceId),
    ]);
    const names = new Map(users.map((u) => [u.id, fullName(u)]));
    const where = new Map(places.map((l: WorkspaceLocation) => [l.id, l.name]));
    return rows.map((r) => ({
      id: r.id,
      therapist: { id: r.therapistId, name: names.get(r.therapistId) ?? 'Usuario eliminado' },
      title: r.title,
      description: r.description,
      schedule: r.schedule,
      timeZone: r.timeZone,
      priceCents: r.priceCents,
      modality: r.modality,
      location: r.locationId ? { id: r.locationId, name: where.get(r.locationId) ?? '' } : null,
      durationMinutes: r.durationMinutes,
      gapMinutes: r.gapMinutes,
      minNotice: r.minNotice,
      maxNotice: r.maxNotice,
      reminders: r.reminders,
      allowNewPatients: r.allowNewPatients,
      bookingLimitPerPatient: r.bookingLimitPerPatient,
      status: r.status,
      payment: r.payment,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

const titleTaken = () => new AppError('public_service_exists', [{ path: 'title', message: 'Ya tienes un servicio con este título.' }]);
