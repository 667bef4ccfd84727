import { z } from 'zod';
import { WORKSPACE_TEMPLATES } from './default-roles';
import { billingInfo } from './billing-info.contracts';
import { featuresResponse, permissionSchema, planResponse } from './workspace.contracts';

// Apart from workspace.contracts: the web app only types with it, and its billing data (tax-id check,
// invoice series) would otherwise ride into the signed-in shell with the workspace's request schemas.

/** Workspace of spec §3, as the signed-in member sees it. */
export const workspaceResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  isOwner: z.boolean(),
  maxSeats: z.number().int(),
  template: z.enum(WORKSPACE_TEMPLATES),
  rolesManager: z.enum(['system', 'user']),
  roles: z.array(z.object({ id: z.uuid(), name: z.string(), isAdmin: z.boolean() })),
  owner: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string().nullable() }),
  /** Null for members who may not read the workspace's billing info. */
  billingInfo: billingInfo.nullable(),
  plan: planResponse,
  features: featuresResponse,
  /** The caller's own permissions here, so the web app can hide what they may not do. */
  me: z.object({ memberId: z.uuid(), isAdmin: z.boolean(), permissions: z.array(permissionSchema) }),
});
export type Workspace = z.infer<typeof workspaceResponse>;
