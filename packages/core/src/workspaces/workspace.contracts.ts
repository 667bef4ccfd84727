import { z } from 'zod';
import { msg } from '../messages';
import { INT4_MAX, requiredText } from '../fields';
import { emailField } from '../auth/auth.contracts';
import { ACTIONS, SUBJECT_NAMES, type Subject } from './permissions';
import { PLAN_IDS } from './plans';
import { WORKSPACE_TEMPLATES } from './default-roles';

export const workspaceIdParams = z.object({ workspaceId: z.uuid({ error: 'Espacio de trabajo inválido' }) });

export const createWorkspaceBody = z.object({
  name: requiredText('nombre', 80),
  template: z.enum(WORKSPACE_TEMPLATES, { error: msg.invalidEnum() }),
});
export const updateWorkspaceBody = z.object({ name: requiredText('nombre', 80) });

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
  advancedStatistics: z.boolean(),
});

export const roleResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  isAdmin: z.boolean(),
  permissions: z.array(permissionSchema),
  seats: z.number().int(),
});
export type Role = z.infer<typeof roleResponse>;

export const commissionSchema = z
  .object({
    type: z.enum(['fixed', 'percentage'], { error: msg.invalidEnum() }),
    /** Cents for `fixed`, basis points (1/100 %) for `percentage`; stored in an `integer` column, so int4 at most. */
    value: z
      .number({ error: msg.invalid('Comisión') })
      .int({ error: msg.invalid('Comisión') })
      .min(0, { error: msg.invalid('Comisión') })
      .max(INT4_MAX, { error: msg.max(INT4_MAX) }),
  })
  .refine((c) => c.type !== 'percentage' || c.value <= 10_000, { error: msg.max('100 %'), path: ['value'] });
export const paymentsReceiverSchema = z.enum(['therapist', 'workspace'], { error: msg.invalidEnum() });

export const inviteMemberBody = z.object({
  email: emailField,
  roleIds: z
    .array(z.uuid())
    .min(1, { error: 'Elige al menos un rol' })
    .max(10, { error: msg.arrayMax(10) }),
  commission: commissionSchema.optional(),
  paymentsReceiver: paymentsReceiverSchema.optional(),
});
export const updateMemberBody = z.object({
  roleIds: z
    .array(z.uuid())
    .min(1, { error: 'Elige al menos un rol' })
    .max(10, { error: msg.arrayMax(10) })
    .optional(),
  commission: commissionSchema.nullable().optional(),
  paymentsReceiver: paymentsReceiverSchema.optional(),
});

/** A mail's way out: waiting in the outbox, being sent, delivered to the server, refused for good, given up after retries. */
export const mailStatusSchema = z.enum(['queued', 'sending', 'sent', 'bounced', 'failed']);
export type MailStatus = z.infer<typeof mailStatusSchema>;

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
  /** How the invitation's mail went (invitations only): a bounced or failed address is visible to whoever invited. */
  mail: z.object({ status: mailStatusSchema, error: z.string().nullable() }).nullable().optional(),
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
  name: requiredText('nombre', 60),
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
