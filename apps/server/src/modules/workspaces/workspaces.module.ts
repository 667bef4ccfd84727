import type { Membership } from '../../platform/auth/access';
import { WorkspaceCache } from '../../platform/cache/workspace-cache';
import { defineModule } from '../../platform/modules/define-module';
import { membersRoutes } from './members.routes';
import { MembersService } from './members.service';
import { rolesRoutes } from './roles.routes';
import { RolesService } from './roles.service';
import { workspacesRoutes } from './workspaces.routes';
import { WorkspacesService } from './workspaces.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Workspaces, plans and who belongs (memberships cached, `resolveMembership` for every request). */
    workspaces: WorkspacesService;
    /** Invitations and members (operator commands and tests add members through it). */
    members: MembersService;
  }
}

/** The broker topic of "a workspace's members or roles changed" (memberships cached by WorkspacesService). */
const ACCESS_CHANGED = 'workspace-access-changed';
/** …and of "a workspace's plan or trial changed" (the plan gates' rows, WorkspacesService). */
const PLAN_CHANGED = 'workspace-plan-changed';

/** Workspaces, their members and roles. */
export const workspacesModule = defineModule({
  name: 'workspaces',
  needs: ['users', 'audit'],
  build: ({ users, audit }, p) => {
    const memberships = new WorkspaceCache<Membership>({ maxEntries: 10_000 }).shareThrough(p.realtime, ACCESS_CHANGED);
    const workspaces = new WorkspacesService(p.db, users, audit, p.publicImages, memberships, p.events);
    workspaces.sharePlanGates(p.realtime, PLAN_CHANGED);
    const members = new MembersService({
      db: p.db,
      users,
      audit,
      mailer: p.mailer,
      workspaces,
      realtime: p.realtime,
      publicUrl: p.config.publicUrl,
    });
    const roles = new RolesService(p.db, audit, workspaces);
    return {
      provides: { workspaces, members },
      routes: (app) => app.register(workspacesRoutes, { workspaces }).register(membersRoutes, { members }).register(rolesRoutes, { roles }),
      sockets: ['workspace.access_changed'],
    };
  },
});
