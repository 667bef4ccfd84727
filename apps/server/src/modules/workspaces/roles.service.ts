import {
  MAX_ROLES_PER_WORKSPACE,
  checkPermissions,
  defineAbility,
  grantRefusal,
  holdsPermission,
  permissionsNotHeld,
  type Permission,
  type Role,
} from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import type { Membership } from '../../platform/auth/access';
import { AppError } from '../../platform/errors';
import type { AuditService } from '../audit/audit.service';
import { rolesRepository, type RoleRow } from './roles.repository';
import type { WorkspacesService } from './workspaces.service';

type RoleInput = { name: string; permissions: Permission[] };

/** Roles made of permissions. The administrator role is built in and cannot change. */
export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly workspaces: WorkspacesService,
  ) {}

  async list(workspaceId: string): Promise<Role[]> {
    const repo = rolesRepository(this.db);
    const [rows, seats] = await Promise.all([repo.list(workspaceId), repo.seatCounts(workspaceId)]);
    return rows.map((r) => present(r, seats.get(r.id) ?? 0));
  }

  async create(m: Membership, actorId: string, input: RoleInput): Promise<Role> {
    const role = await this.db.transaction(async (tx) => {
      await this.assertSelfManaged(tx, m.workspaceId);
      assertPermissions(input.permissions);
      assertHeld(m, input.permissions);
      const repo = rolesRepository(tx);
      if ((await repo.count(m.workspaceId)) >= MAX_ROLES_PER_WORKSPACE) throw new AppError('role_limit_exceeded');
      if (await repo.nameTaken(m.workspaceId, input.name)) throw roleExists();
      const row = await repo.insert({ workspaceId: m.workspaceId, name: input.name, permissions: input.permissions });
      if (!row) throw roleExists();
      await this.audit.record(tx, {
        workspaceId: m.workspaceId,
        actorId,
        action: 'role.created',
        target: input.name,
        details: { permissions: input.permissions },
      });
      return row;
    });
    return present(role, 0);
  }

  async update(m: Membership, actorId: string, roleId: string, input: RoleInput): Promise<Role> {
    const role = await this.db.transaction(async (tx) => {
      await this.assertSelfManaged(tx, m.workspaceId);
      const current = await this.editable(tx, m.workspaceId, roleId);
      assertPermissions(input.permissions);
      // What the role already had is no grant (renaming a role keeps it); anything wider must be held.
      const had = defineAbility({ userId: actorId, isAdmin: false, permissions: current.permissions });
      assertHeld(
        m,
        input.permissions.filter((p) => !holdsPermission(had, p)),
      );
      if (await rolesRepository(tx).nameTaken(m.workspaceId, input.name, roleId)) throw roleExists();
      await this.audit.record(tx, {
        workspaceId: m.workspaceId,
        actorId,
        action: 'role.updated',
        target: input.name,
        details: { before: { name: current.name, permissions: current.permissions }, after: input },
      });
      return (await rolesRepository(tx).update(roleId, input))!;
    });
    await this.workspaces.accessChanged(m.workspaceId);
    return present(role, (await rolesRepository(this.db).seatCounts(m.workspaceId)).get(roleId) ?? 0);
  }

  async delete(m: Membership, actorId: string, roleId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.assertSelfManaged(tx, m.workspaceId);
      const current = await this.editable(tx, m.workspaceId, roleId);
      if (await rolesRepository(tx).inUse(m.workspaceId, roleId)) throw new AppError('role_has_seats');
      await rolesRepository(tx).delete(roleId);
      await this.audit.record(tx, { workspaceId: m.workspaceId, actorId, action: 'role.deleted', target: current.name });
    });
    await this.workspaces.accessChanged(m.workspaceId);
  }

  private async editable(tx: DbOrTx, workspaceId: string, roleId: string): Promise<RoleRow> {
    const role = await rolesRepository(tx).find(workspaceId, roleId);
    if (!role) throw new AppError('role_not_found');
    if (role.isAdmin) throw new AppError('cannot_update_admin');
    return role;
  }

  private async assertSelfManaged(tx: DbOrTx, workspaceId: string) {
    if ((await this.workspaces.rolesManager(workspaceId, tx)) !== 'user') throw new AppError('roles_manager_not_user');
  }
}

function assertPermissions(perms: Permission[]) {
  const problem = checkPermissions(perms);
  if (problem)
    throw new AppError(
      problem,
      [{ path: 'permissions', message: '' }].map((f) => ({ ...f, message: messageFor(problem) })),
    );
}

/** Nobody creates or widens a role with permissions they do not hold themselves. */
function assertHeld(m: Membership, perms: Permission[]) {
  const missing = m.isAdmin ? [] : permissionsNotHeld(m.ability, perms);
  if (missing.length === 0) return;
  const message = grantRefusal.notHeld(missing);
  throw new AppError('access_denied', [{ path: 'permissions', message }], message);
}

const messageFor = (p: string) =>
  ({
    permission_missing: 'El rol necesita al menos un permiso',
    invalid_permission: 'Permiso inválido',
    invalid_action_combination: 'Esa combinación de acción y sección no es válida',
    duplicate_permissions: 'Hay permisos repetidos',
  })[p] ?? 'Permisos inválidos';

const roleExists = () => new AppError('role_exists', [{ path: 'name', message: 'Ya existe un rol con ese nombre' }]);

const present = (r: RoleRow, seats: number): Role => ({ id: r.id, name: r.name, isAdmin: r.isAdmin, permissions: r.permissions, seats });
