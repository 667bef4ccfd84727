import {
  ADMIN_ROLE_NAME,
  addMonthsUtc,
  DEFAULT_ROLES,
  FREE_TRIAL_DAYS,
  MAX_OWNED_WORKSPACES,
  SUBJECT_NAMES,
  defaultWorkspaceName,
  defineAbility,
  featuresOf,
  maxSeatsOf,
  type BillingInfo,
  type PlanId,
  type Workspace,
  type WorkspaceTemplate,
} from '@divan/core';
import { WorkspaceCache, type CacheBus } from '../../platform/cache/workspace-cache';
import type { Db, DbOrTx } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import type { Membership } from '../../platform/auth/access';
import { AppError } from '../../platform/errors';
import type { PublicImageStore } from '../../platform/storage/public-image-store';
import { uploadedImage } from '../../platform/storage/image';
import type { AuditService } from '../audit/audit.service';
import type { UsersService } from '../users/users.service';
import { membersRepository } from './members.repository';
import { rolesRepository } from './roles.repository';
import { workspacesRepository, type WorkspaceRow } from './workspaces.repository';
import { billingOf, fileUrl, planOf, presentWorkspace } from './workspace-presenter';

/** How long a plan gate of a hot read may lag a change made in another process (`featuresForRead`). */
export const PLAN_GATE_TTL_MS = 5_000;

const ADMIN_PERMISSIONS = SUBJECT_NAMES.map((subject) => ({ action: 'manage' as const, subject }));

export class WorkspacesService {
  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly publicImages: PublicImageStore,
    /** Memberships by workspace and user, until the workspace's members or roles change. */
    private readonly memberships: WorkspaceCache<Membership> = new WorkspaceCache<Membership>({ maxEntries: 0 }),
    private readonly events?: EventBus,
  ) {}

  /**
   * The workspace rows behind the plan gates of hot reads (`featuresForRead`): kept a few seconds, so a
   * busy statistics screen does not read the row on every request (on PGlite each read queues behind the
   * others). A change drops it at once here and, shared through the broker (`sharePlanGates`), in every
   * process; one racing its commit (inside a caller's transaction) shows within PLAN_GATE_TTL_MS.
   */
  private readonly planRows = new WorkspaceCache<WorkspaceRow>({ maxEntries: 10_000, ttlMs: PLAN_GATE_TTL_MS });

  /** The plan gates' rows are dropped in every server process when a plan or trial changes (issue 31). */
  sharePlanGates(bus: CacheBus, topic: string) {
    this.planRows.shareThrough(bus, topic);
  }

  /**
   * The access guard's resolver, on every workspace request: from the cache, or one query and the
   * CASL ability. Whatever changes who is a member or what their roles allow calls `accessChanged`.
   */
  resolveMembership = async (workspaceId: string, userId: string): Promise<Membership | null> => {
    const generation = this.memberships.generation(workspaceId);
    const key = `${workspaceId}|${generation}|${userId}`;
    const hit = this.memberships.get(key);
    if (hit) return hit;
    const m = await workspacesRepository(this.db).membership(workspaceId, userId);
    if (!m) return null;
    const isAdmin = m.roles.some((r) => r.isAdmin);
    const membership: Membership = {
      workspaceId,
      memberId: m.memberId,
      isOwner: m.ownerId === userId,
      isAdmin,
      ability: defineAbility({ userId, isAdmin, permissions: m.roles.flatMap((r) => r.permissions) }),
    };
    this.memberships.set(key, workspaceId, generation, membership);
    return membership;
  };

  /** After a committed change to a workspace's members, their roles or the roles' permissions. */
  async accessChanged(workspaceId: string): Promise<void> {
    this.memberships.changed(workspaceId);
    // For the modules that keep something per member (sessions' therapists, booking pages, the
    // statistics' named members) to react — awaited, so they have before the change's answer returns.
    await this.events?.emit('workspace.access_changed', { workspaceId });
  }

  /** Every new therapist gets their own workspace, in the sign-up transaction. */
  async createPersonal(tx: DbOrTx, user: { id: string; firstName: string }) {
    return this.insertWorkspace(tx, user.id, defaultWorkspaceName('freelance', user.firstName), 'freelance');
  }

  async create(userId: string, input: { name: string; template: WorkspaceTemplate }): Promise<Workspace> {
    const id = await this.db.transaction(async (tx) => {
      await this.users.lock(userId, tx);
      if ((await workspacesRepository(tx).countOwnedBy(userId)) >= MAX_OWNED_WORKSPACES) throw new AppError('workspace_limit_reached');
      if (await workspacesRepository(tx).nameTaken(userId, input.name)) throw nameTaken();
      return this.insertWorkspace(tx, userId, input.name, input.template);
    });
    return this.get(id, userId);
  }

  /** A workspace made by the server for one of its own purposes (Diván's own invoices), inside the caller's transaction. */
  createIn(tx: DbOrTx, ownerId: string, name: string, template: WorkspaceTemplate): Promise<string> {
    return this.insertWorkspace(tx, ownerId, name, template);
  }

  private async insertWorkspace(tx: DbOrTx, ownerId: string, name: string, template: WorkspaceTemplate): Promise<string> {
    const ws = await workspacesRepository(tx).insert({
      name,
      template,
      ownerId,
      freeTrialEnd: new Date(Date.now() + FREE_TRIAL_DAYS * 86_400_000),
    });
    if (!ws) throw nameTaken();
    const roles = rolesRepository(tx);
    const admin = await roles.insert({ workspaceId: ws.id, name: ADMIN_ROLE_NAME, isAdmin: true, permissions: ADMIN_PERMISSIONS });
    for (const r of DEFAULT_ROLES[template]) await roles.insert({ workspaceId: ws.id, name: r.name, permissions: r.permissions });
    const member = await membersRepository(tx).insert({ workspaceId: ws.id, userId: ownerId });
    await membersRepository(tx).setRoles(member!, [admin!.id]);
    await this.audit.record(tx, { workspaceId: ws.id, actorId: ownerId, action: 'workspace.created', target: name, details: { template } });
    return ws.id;
  }

  async listForUser(userId: string): Promise<Workspace[]> {
    const rows = await workspacesRepository(this.db).listForUser(userId);
    return Promise.all(rows.map((r) => this.present(r.workspace, userId)));
  }

  async get(workspaceId: string, userId: string): Promise<Workspace> {
    const ws = await workspacesRepository(this.db).findById(workspaceId);
    if (!ws) throw new AppError('workspace_not_found');
    return this.present(ws, userId);
  }

  async rename(m: Membership, actorId: string, name: string): Promise<Workspace> {
    const ws = await this.db.transaction(async (tx) => {
      const current = await workspacesRepository(tx).lock(m.workspaceId);
      if (await workspacesRepository(tx).nameTaken(current!.ownerId, name, m.workspaceId)) throw nameTaken();
      await this.audit.record(tx, {
        workspaceId: m.workspaceId,
        actorId,
        action: 'workspace.renamed',
        target: name,
        details: { from: current!.name },
      });
      return workspacesRepository(tx).update(m.workspaceId, { name });
    });
    return this.present(ws!, actorId);
  }

  async setLogo(m: Membership, actorId: string, data: Buffer | null): Promise<Workspace> {
    const ws = (await workspacesRepository(this.db).findById(m.workspaceId))!;
    let fileId: string | null = null;
    if (data) {
      const image = uploadedImage(data, { square: true });
      fileId = (await this.publicImages.save({ ownerUserId: actorId, purpose: 'workspace-logo', contentType: image.contentType, data })).id;
    }
    const updated = await workspacesRepository(this.db).update(m.workspaceId, { logoFileId: fileId });
    if (ws.logoFileId) await this.publicImages.delete(ws.logoFileId);
    return this.present(updated!, actorId);
  }

  async billingInfo(workspaceId: string, tx: DbOrTx = this.db): Promise<BillingInfo> {
    return billingOf((await workspacesRepository(tx).findById(workspaceId))!);
  }

  async updateBillingInfo(workspaceId: string, info: BillingInfo): Promise<BillingInfo> {
    const nul = (v: string | null | undefined) => (v ? v : null);
    const row = await workspacesRepository(this.db).update(workspaceId, {
      billingFullName: nul(info.fullName),
      billingTaxId: nul(info.taxId?.toUpperCase()),
      billingLine1: nul(info.line1),
      billingLine2: nul(info.line2),
      billingCity: nul(info.city),
      billingZipCode: nul(info.zipCode),
      billingCountry: nul(info.country),
      billingFooter: nul(info.footer),
      billingSeriesPrefix: info.seriesPrefix,
    });
    return billingOf(row!);
  }

  /** Self-managed roles can be switched off by the owner only, once and for good. */
  async disableSelfManagedRoles(m: Membership, actorId: string): Promise<Workspace> {
    const ws = await this.db.transaction(async (tx) => {
      const current = await workspacesRepository(tx).lock(m.workspaceId);
      if (current!.rolesManager === 'system') throw new AppError('roles_manager_cannot_be_updated');
      await this.audit.record(tx, { workspaceId: m.workspaceId, actorId, action: 'roles_manager.disabled' });
      return workspacesRepository(tx).update(m.workspaceId, { rolesManager: 'system' });
    });
    await this.accessChanged(m.workspaceId);
    return this.present(ws!, actorId);
  }

  /** Operator command (`npm run admin -- set-plan`): paying for a plan comes with a later issue. */
  /**
   * The workspace's plan (an operator's command, or Diván's billing when the provider says so). Inside
   * the caller's transaction when given; audited only when something changed.
   */
  async setPlan(
    workspaceId: string,
    plan: { id: PlanId | null; seats?: number; periodEnd?: Date | null; renovationEnabled?: boolean },
    outer?: DbOrTx,
  ) {
    const run = <T>(fn: (tx: DbOrTx) => Promise<T>) => (outer ? fn(outer) : this.db.transaction(fn));
    this.planRows.invalidate(workspaceId);
    const row = await run(async (tx) => {
      const current = await workspacesRepository(tx).lock(workspaceId);
      if (!current) throw new AppError('workspace_not_found');
      const row = await workspacesRepository(tx).update(workspaceId, {
        planId: plan.id,
        planSeats: plan.seats ?? (plan.id === 'team' ? Math.max(current.planSeats, 2) : 1),
        planPeriodEnd: plan.periodEnd ?? null,
        planRenovationEnabled: plan.renovationEnabled ?? !!plan.id,
      });
      const same =
        current.planId === row!.planId &&
        current.planSeats === row!.planSeats &&
        current.planRenovationEnabled === row!.planRenovationEnabled &&
        current.planPeriodEnd?.getTime() === row!.planPeriodEnd?.getTime();
      if (same) return row!;
      await this.audit.record(tx, {
        workspaceId,
        actorId: null,
        action: 'plan.changed',
        target: plan.id ?? 'none',
        details: { from: current.planId, seats: row!.planSeats },
      });
      return row!;
    });
    // Again once committed, in every process (in the caller's transaction, the bound above covers the rest).
    this.planRows.changed(workspaceId);
    return row;
  }

  /**
   * More free trial (issue 27): a referred friend's 30 days, or the months of a gift redeemed — counted
   * from now when it had already ended, or from `after`, the end of a paid period they follow (a plan
   * whose renewal is off: the trial's features apply only once the plan has ended, `featuresOf`) —
   * inside the caller's transaction, audited. Answers the new end.
   */
  async extendTrial(
    workspaceId: string,
    by: { days: number } | { months: number },
    why: 'referral' | 'gift',
    tx: DbOrTx,
    opts: { after?: Date | null } = {},
  ): Promise<Date> {
    const current = await workspacesRepository(tx).lock(workspaceId);
    if (!current) throw new AppError('workspace_not_found');
    const from = new Date(Math.max(current.freeTrialEnd?.getTime() ?? 0, Date.now(), opts.after?.getTime() ?? 0));
    const until = 'days' in by ? new Date(from.getTime() + by.days * 86_400_000) : addMonthsUtc(from, by.months);
    await workspacesRepository(tx).update(workspaceId, { freeTrialEnd: until });
    this.planRows.changed(workspaceId);
    await this.audit.record(tx, {
      workspaceId,
      actorId: null,
      action: 'plan.trial_extended',
      target: until.toISOString(),
      details: { until: until.toISOString(), why, ...by, ...(opts.after ? { after: opts.after.toISOString() } : {}) },
    });
    return until;
  }

  /** The workspaces a user is a member of (the second-factor policy, issue 32). */
  workspaceIdsOf = async (userId: string, tx: DbOrTx = this.db): Promise<string[]> =>
    (await workspacesRepository(tx).listForUser(userId)).map((r) => r.workspace.id);

  /** The workspaces a user owns (a referred friend must never have had a plan on any of them). */
  ownedBy = (userId: string, tx: DbOrTx = this.db): Promise<string[]> => workspacesRepository(tx).ownedBy(userId);

  /** Users Diván bills the workspace for: members holding a role (pending invitations do not count). */
  async activeUsers(workspaceId: string, tx: DbOrTx = this.db): Promise<number> {
    return membersRepository(tx).countWithRole(workspaceId);
  }

  /** Seats in use (members and pending invitations) against the plan's. */
  async assertSeatAvailable(tx: DbOrTx, workspaceId: string) {
    const ws = await workspacesRepository(tx).lock(workspaceId);
    const used = (await membersRepository(tx).count(workspaceId)) + (await membersRepository(tx).countPending(workspaceId));
    if (used >= maxSeatsOf(planOf(ws!))) throw new AppError('seat_limit_reached');
  }

  async rolesManager(workspaceId: string, tx: DbOrTx = this.db) {
    return (await workspacesRepository(tx).findById(workspaceId))!.rolesManager;
  }

  async ownerOf(workspaceId: string, tx: DbOrTx = this.db): Promise<string> {
    const ws = await workspacesRepository(tx).findById(workspaceId);
    if (!ws) throw new AppError('workspace_not_found');
    return ws.ownerId;
  }

  /**
   * Whose patients are unassigned ones: in an Individual (freelance) workspace every patient is the
   * owner's; in a team or clinic nobody's until someone assigns them (null).
   */
  async soloOwnerOf(workspaceId: string, tx: DbOrTx = this.db): Promise<string | null> {
    const ws = await workspacesRepository(tx).findById(workspaceId);
    if (!ws) throw new AppError('workspace_not_found');
    return ws.template === 'freelance' ? ws.ownerId : null;
  }

  async isMember(workspaceId: string, userId: string, tx: DbOrTx = this.db): Promise<boolean> {
    return !!(await membersRepository(tx).findByUser(workspaceId, userId));
  }

  /** A member's commission and payments receiver (spec §6), which a session's fee and receiver come from; null if not a member. */
  async memberTerms(workspaceId: string, userId: string, tx: DbOrTx = this.db) {
    const m = await membersRepository(tx).findByUser(workspaceId, userId);
    if (!m) return null;
    const commission = m.commissionType && m.commissionValue !== null ? { type: m.commissionType, value: m.commissionValue } : null;
    return { commission, paymentsReceiver: m.paymentsReceiver };
  }

  /** The plan in force on the workspace's row (null: none, in trial or not). */
  async planIdOf(workspaceId: string, tx: DbOrTx = this.db): Promise<PlanId | null> {
    const ws = await workspacesRepository(tx).findById(workspaceId);
    if (!ws) throw new AppError('workspace_not_found');
    return ws.planId;
  }

  /** `featuresOf` for a read's gate, outside any transaction: up to PLAN_GATE_TTL_MS behind a change made elsewhere. */
  async featuresForRead(workspaceId: string) {
    const generation = this.planRows.generation(workspaceId);
    const key = `${workspaceId}|${generation}`;
    let ws = this.planRows.get(key);
    if (!ws) {
      ws = await workspacesRepository(this.db).findById(workspaceId);
      if (!ws) throw new AppError('workspace_not_found');
      this.planRows.set(key, workspaceId, generation, ws);
    }
    // The trial's end and the period's are compared with now on every call.
    return featuresOf(planOf(ws));
  }

  async featuresOf(workspaceId: string, tx: DbOrTx = this.db) {
    const ws = await workspacesRepository(tx).findById(workspaceId);
    if (!ws) throw new AppError('workspace_not_found');
    return featuresOf(planOf(ws));
  }

  /** Serialises writes that check a per-workspace rule (duplicates, limits) on PostgreSQL. */
  lockWorkspace = (workspaceId: string, tx: DbOrTx) => workspacesRepository(tx).lock(workspaceId);

  async nameOf(workspaceId: string) {
    return (await workspacesRepository(this.db).findById(workspaceId))?.name ?? null;
  }

  /** Who belongs to the workspace (its members' user ids), e.g. to tell their screens of a change. */
  memberUserIds = async (workspaceId: string) => (await membersRepository(this.db).list(workspaceId)).map((m) => m.userId);

  /** The name and logo (a public image path) that mail sent in the workspace's name shows. */
  async brandOf(workspaceId: string, tx: DbOrTx = this.db) {
    const ws = await workspacesRepository(tx).findById(workspaceId);
    return { name: ws?.name ?? 'Diván', logoPath: fileUrl(ws?.logoFileId ?? null) };
  }

  private async present(ws: WorkspaceRow, userId: string): Promise<Workspace> {
    const [owner, roles, membership] = await Promise.all([
      this.users.findById(ws.ownerId),
      rolesRepository(this.db).list(ws.id),
      workspacesRepository(this.db).membership(ws.id, userId),
    ]);
    return presentWorkspace(ws, userId, owner, roles, membership);
  }
}

const nameTaken = () => new AppError('workspace_already_exists', [{ path: 'name', message: 'Ya tienes un espacio con ese nombre' }]);
