import { z } from 'zod';
import { msg } from '../messages';
import { emailField } from '../auth/auth.contracts';
import { ACTIONS, SUBJECT_NAMES, type Subject } from './permissions';
import { PLAN_IDS } from './plans';
import { WORKSPACE_TEMPLATES } from './default-roles';

const text = (field: string, max: number) =>
  z.string({ error: msg.required(field) }).trim().min(1, { error: msg.required(field) }).max(max, { error: msg.maxLength(max) });
const optionalText = (max: number) => z.string().trim().max(max, { error: msg.maxLength(max) }).nullable().optional();

export const workspaceIdParams = z.object({ workspaceId: z.uuid({ error: 'Espacio de trabajo inválido' }) });

export const createWorkspaceBody = z.object({
  name: text('nombre', 80),
  template: z.enum(WORKSPACE_TEMPLATES, { error: msg.invalidEnum() }),
});
export const updateWorkspaceBody = z.object({ name: text('nombre', 80) });

export const billingInfo = z.object({
  fullName: optionalText(150),
  taxId: optionalText(20),
  line1: optionalText(150),
  line2: optionalText(150),
  city: optionalText(80),
  zipCode: z.string().trim().regex(/^$|^[0-9A-Za-z -]{3,10}$/, { error: msg.invalid('Código postal') }).nullable().optional(),
  country: optionalText(60),
  footer: optionalText(500),
});
export type BillingInfo = z.infer<typeof billingInfo>;

export const permissionSchema = z.object({
  action: z.enum(ACTIONS, { error: msg.invalidEnum() }),
  subject: z.enum(SUBJECT_NAMES as [Subject, ...Subject[]], { error: msg.invalidEnum() }),
  ownOnly: z.boolean().optional(),
});

export const planResponse = z.object({
  id: z.enum(PLAN_IDS).nullable(),
  periodEnd: z.string().nullable(),
  renovationEnabled: z.boolean(),
  freeTrialEnd: z.string().nullable(),
  seats: z.number().int(),
  promptUpgrade: z.boolean(),
});
export const featuresResponse = z.object({
  activePatientLimit: z.number().int().nullable(),
  sessionReminders: z.number().int(),
  canEmbedPublicServices: z.boolean(),
  canCreateInvoiceBatch: z.boolean(),
});

export const roleResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  isAdmin: z.boolean(),
  permissions: z.array(permissionSchema),
  seats: z.number().int(),
});
export type Role = z.infer<typeof roleResponse>;

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

export const commissionSchema = z
  .object({
    type: z.enum(['fixed', 'percentage'], { error: msg.invalidEnum() }),
    /** Cents for `fixed`, basis points (1/100 %) for `percentage`. */
    value: z.number().int({ error: msg.invalid('Comisión') }).min(0, { error: msg.invalid('Comisión') }),
  })
  .refine((c) => c.type !== 'percentage' || c.value <= 10_000, { error: msg.max('100 %'), path: ['value'] });
export const paymentsReceiverSchema = z.enum(['therapist', 'workspace'], { error: msg.invalidEnum() });

export const inviteMemberBody = z.object({
  email: emailField,
  roleIds: z.array(z.uuid()).min(1, { error: 'Elige al menos un rol' }).max(10, { error: msg.arrayMax(10) }),
  commission: commissionSchema.optional(),
  paymentsReceiver: paymentsReceiverSchema.optional(),
});
export const updateMemberBody = z.object({
  roleIds: z.array(z.uuid()).min(1, { error: 'Elige al menos un rol' }).max(10, { error: msg.arrayMax(10) }).optional(),
  commission: commissionSchema.nullable().optional(),
  paymentsReceiver: paymentsReceiverSchema.optional(),
});

export const memberResponse = z.object({
  id: z.uuid(),
  kind: z.enum(['member', 'invitation']),
  userId: z.uuid().nullable(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  pictureUrl: z.string().nullable(),
  isOwner: z.boolean(),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
  commission: z.object({ type: z.enum(['fixed', 'percentage']), value: z.number().int() }).nullable(),
  paymentsReceiver: paymentsReceiverSchema,
  status: z.enum(['active', 'pending']),
  createdAt: z.string(),
});
export type Member = z.infer<typeof memberResponse>;

export const invitationResponse = z.object({
  id: z.uuid(),
  workspaceId: z.uuid(),
  workspaceName: z.string(),
  email: z.string(),
  invitedBy: z.string(),
  status: z.enum(['pending', 'accepted', 'canceled']),
});

export const roleBody = z.object({
  name: text('nombre', 60),
  permissions: z.array(permissionSchema).min(1, { error: 'El rol necesita al menos un permiso' }).max(200),
});

export const disableSelfManagedRolesBody = z.object({
  confirmation: z.literal('DESACTIVAR', { error: 'Escribe DESACTIVAR para confirmar' }),
});

export const auditEventResponse = z.object({
  id: z.uuid(),
  action: z.string(),
  actor: z.object({ id: z.uuid().nullable(), name: z.string() }),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
