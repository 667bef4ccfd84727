import { MAX_LOCATIONS_PER_WORKSPACE, type WorkspaceLocation } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { locationsRepository } from './sessions.repository';
import type { LocationRow } from './sessions.tables';

type LocationInput = { name: string; kind: 'room' | 'address'; address?: string | null };

const present = (l: LocationRow): WorkspaceLocation => ({
  id: l.id,
  name: l.name,
  kind: l.kind,
  address: l.address,
  createdAt: l.createdAt.toISOString(),
});

/**
 * The workspace's rooms and addresses (workspace settings). Read by those who read sessions, managed
 * with "Editar" on the workspace profile. Deleting one leaves its sessions without a location.
 */
export class LocationsService {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspacesService,
  ) {}

  list = async (workspaceId: string) => (await locationsRepository(this.db).list(workspaceId)).map(present);

  async create(workspaceId: string, input: LocationInput): Promise<WorkspaceLocation> {
    const row = await this.db.transaction(async (tx) => {
      await this.workspaces.lockWorkspace(workspaceId, tx);
      if ((await locationsRepository(tx).count(workspaceId)) >= MAX_LOCATIONS_PER_WORKSPACE) throw new AppError('location_limit_reached');
      return locationsRepository(tx).insert({ workspaceId, name: input.name, kind: input.kind, address: input.address ?? null });
    });
    return present(row);
  }

  async update(workspaceId: string, id: string, input: Partial<LocationInput>): Promise<WorkspaceLocation> {
    const values = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const repo = locationsRepository(this.db);
    const row = Object.keys(values).length ? await repo.update(workspaceId, id, values) : await repo.find(workspaceId, id);
    if (!row) throw new AppError('location_not_found');
    return present(row);
  }

  async delete(workspaceId: string, id: string) {
    if (!(await locationsRepository(this.db).delete(workspaceId, id))) throw new AppError('location_not_found');
  }
}
