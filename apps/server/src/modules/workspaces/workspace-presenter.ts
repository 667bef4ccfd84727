import { defineAbility, featuresOf, maxSeatsOf, type BillingInfo, type Workspace } from '@divan/core';
import type { WorkspaceRow } from './workspaces.repository';

export const fileUrl = (id: string | null) => (id ? `/api/v1/files/${id}` : null);

type Owner = { firstName: string; lastName: string | null } | null | undefined;
type RoleRow = { id: string; name: string; isAdmin: boolean };
type MembershipRow = { memberId: string; roles: { isAdmin: boolean; permissions: Workspace['me']['permissions'] }[] } | null | undefined;

/** The workspace as `userId` sees it: their own membership, and billing only with its permission. */
export function presentWorkspace(ws: WorkspaceRow, userId: string, owner: Owner, roles: RoleRow[], membership: MembershipRow): Workspace {
  const plan = planOf(ws);
  const me = {
    memberId: membership?.memberId ?? '',
    isAdmin: !!membership?.roles.some((r) => r.isAdmin),
    permissions: membership?.roles.flatMap((r) => r.permissions) ?? [],
  };
  const ability = defineAbility({ userId, isAdmin: me.isAdmin, permissions: me.permissions });
  return {
    id: ws.id,
    name: ws.name,
    logoUrl: fileUrl(ws.logoFileId),
    isOwner: ws.ownerId === userId,
    maxSeats: maxSeatsOf(plan),
    template: ws.template,
    rolesManager: ws.rolesManager,
    roles: roles.map((r) => ({ id: r.id, name: r.name, isAdmin: r.isAdmin })),
    owner: { id: ws.ownerId, firstName: owner?.firstName ?? '', lastName: owner?.lastName ?? null },
    billingInfo: ability.can('read', 'workspace_billing') ? billingOf(ws) : null,
    plan: { ...plan, promptUpgrade: plan.id === null },
    features: featuresOf(plan),
    me,
  };
}

export function planOf(ws: WorkspaceRow) {
  return {
    id: ws.planId,
    periodEnd: ws.planPeriodEnd?.toISOString() ?? null,
    renovationEnabled: ws.planRenovationEnabled,
    freeTrialEnd: ws.freeTrialEnd?.toISOString() ?? null,
    seats: ws.planSeats,
  };
}

export function billingOf(ws: WorkspaceRow): BillingInfo {
  return {
    fullName: ws.billingFullName,
    taxId: ws.billingTaxId,
    line1: ws.billingLine1,
    line2: ws.billingLine2,
    city: ws.billingCity,
    zipCode: ws.billingZipCode,
    country: ws.billingCountry,
    footer: ws.billingFooter,
    seriesPrefix: ws.billingSeriesPrefix,
  };
}
