import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { billingAddressColumns } from '../../platform/db/columns';
import type { Permission } from '@divan/core';
// Foreign keys only: this module reads users through the users service.
import { users } from '../users/users.tables';

/** Workspace of spec §3, with its billing info and plan. */
export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    logoFileId: uuid('logo_file_id'),
    template: text('template', { enum: ['freelance', 'team', 'clinic'] }).notNull(),
    rolesManager: text('roles_manager', { enum: ['system', 'user'] })
      .notNull()
      .default('user'),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    ...billingAddressColumns(),
    billingFooter: text('billing_footer'),
    /** The prefix of the workspace's invoice series when it is the seller ('' gives 2026-0001). */
    billingSeriesPrefix: text('billing_series_prefix').notNull().default(''),
    planId: text('plan_id', { enum: ['basic', 'advance', 'team'] }),
    planPeriodEnd: timestamp('plan_period_end', { withTimezone: true }),
    planRenovationEnabled: boolean('plan_renovation_enabled').notNull().default(false),
    planSeats: integer('plan_seats').notNull().default(1),
    freeTrialEnd: timestamp('free_trial_end', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workspaces_owner_idx').on(t.ownerId), uniqueIndex('workspaces_owner_name_key').on(t.ownerId, sql`lower(${t.name})`)],
);

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    permissions: jsonb('permissions').$type<Permission[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_workspace_name_key').on(t.workspaceId, sql`lower(${t.name})`)],
);

/** A seat: a therapist's membership of a workspace. */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    commissionType: text('commission_type', { enum: ['fixed', 'percentage'] }),
    /** Cents (fixed) or basis points (percentage). */
    commissionValue: integer('commission_value'),
    paymentsReceiver: text('payments_receiver', { enum: ['therapist', 'workspace'] })
      .notNull()
      .default('therapist'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('members_workspace_user_key').on(t.workspaceId, t.userId), index('members_user_idx').on(t.userId)],
);

export const memberRoles = pgTable(
  'member_roles',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.roleId] }), index('member_roles_role_idx').on(t.roleId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    roleIds: jsonb('role_ids').$type<string[]>().notNull(),
    commissionType: text('commission_type', { enum: ['fixed', 'percentage'] }),
    commissionValue: integer('commission_value'),
    paymentsReceiver: text('payments_receiver', { enum: ['therapist', 'workspace'] })
      .notNull()
      .default('therapist'),
    status: text('status', { enum: ['pending', 'accepted', 'canceled'] })
      .notNull()
      .default('pending'),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    index('invitations_workspace_idx').on(t.workspaceId, t.status),
    // One pending invitation per email and workspace, even under concurrent invites.
    uniqueIndex('invitations_pending_key')
      .on(t.workspaceId, t.email)
      .where(sql`${t.status} = 'pending'`),
  ],
);
