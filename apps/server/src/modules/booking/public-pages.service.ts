import type {
  PublicServicePage,
  PublicServiceSummary,
  PublicTherapist,
  PublicTherapistPage,
  PublicWorkspaceIndex,
  WorkspaceLocation,
} from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { LocationsService } from '../sessions/locations.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { bookingRepository } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';

const notFound = () => new AppError('public_service_not_found');
const fullName = (u: { firstName: string; lastName: string | null }) => [u.firstName, u.lastName].filter(Boolean).join(' ');
/** Public images are served by unguessable id to anyone (`GET /api/v1/files/:id`): an `<img>` of a visitor loads them. */
const fileUrl = (id: string | null) => (id ? `/api/v1/files/${id}` : null);

type Person = { id: string; firstName: string; lastName: string | null; biography: string | null; pictureFileId: string | null };

/**
 * The public booking pages' reads (spec §2 `/v1/reservations/{workspaceId}/…`), without an account: the
 * workspace's index (therapists who offer at least one active service), a therapist, a service. Only
 * what a visitor may see (no email, phone, schedule internals); a paused service is left out, and an
 * unknown or paused one, a therapist with nothing active or a path that does not match is
 * `public_service_not_found`, the same answer for every case so nothing is learnt of other workspaces.
 */
export class PublicPagesService {
  constructor(private readonly d: { db: Db; users: UsersService; workspaces: WorkspacesService; locations: LocationsService }) {}

  async index(workspaceId: string): Promise<PublicWorkspaceIndex> {
    const rows = await this.active(workspaceId);
    const therapists = await this.therapists(workspaceId, rows);
    if (!therapists.length) throw notFound();
    return { workspace: await this.workspace(workspaceId), therapists };
  }

  async therapist(workspaceId: string, therapistId: string): Promise<PublicTherapistPage> {
    const [therapist] = await this.therapists(workspaceId, await this.active(workspaceId, therapistId));
    if (!therapist) throw notFound();
    return { workspace: await this.workspace(workspaceId), therapist };
  }

  async service(workspaceId: string, therapistId: string, serviceId: string): Promise<PublicServicePage> {
    const row = (await this.active(workspaceId, therapistId)).find((r) => r.id === serviceId);
    if (!row) throw notFound();
    const [therapist] = await this.therapists(workspaceId, [row]);
    if (!therapist) throw notFound();
    const {
      services: [summary],
      ...person
    } = therapist;
    return {
      workspace: await this.workspace(workspaceId),
      therapist: person,
      service: { ...summary!, timeZone: row.timeZone, minNotice: row.minNotice, maxNotice: row.maxNotice },
    };
  }

  /** Active services of the workspace (of one therapist), by title. */
  private active(workspaceId: string, therapistId?: string): Promise<BookingServiceRow[]> {
    return bookingRepository(this.d.db).activeServices(workspaceId, therapistId);
  }

  /** The services' therapists who still belong to the workspace, by name, each with their services. */
  private async therapists(workspaceId: string, rows: BookingServiceRow[]): Promise<PublicTherapist[]> {
    if (!rows.length) return [];
    const ids = [...new Set(rows.map((r) => r.therapistId))];
    const [people, members, places] = await Promise.all([
      this.d.users.findManyByIds(ids) as Promise<Person[]>,
      this.d.workspaces.memberUserIds(workspaceId),
      rows.some((r) => r.locationId) ? this.d.locations.list(workspaceId) : Promise.resolve([] as WorkspaceLocation[]),
    ]);
    const where = new Map(places.map((l) => [l.id, l]));
    const belong = new Set(members);
    return people
      .filter((p) => belong.has(p.id))
      .map((p) => ({
        id: p.id,
        name: fullName(p),
        pictureUrl: fileUrl(p.pictureFileId),
        biography: p.biography,
        services: rows.filter((r) => r.therapistId === p.id).map((r) => summary(r, r.locationId ? where.get(r.locationId) : undefined)),
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.id.localeCompare(b.id));
  }

  private async workspace(workspaceId: string) {
    const brand = await this.d.workspaces.brandOf(workspaceId);
    return { id: workspaceId, name: brand.name, logoUrl: brand.logoPath };
  }
}

function summary(r: BookingServiceRow, place: WorkspaceLocation | undefined): PublicServiceSummary {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    durationMinutes: r.durationMinutes,
    priceCents: r.priceCents,
    modality: r.modality,
    location: place ? { name: place.name, address: place.address } : null,
    payment: r.payment,
    allowNewPatients: r.allowNewPatients,
  };
}
