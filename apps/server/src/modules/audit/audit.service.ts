import type { Db, DbOrTx } from '../../platform/db/database';
import type { UsersService } from '../users/users.service';
import { auditRepository, type AuditDetails, type AuditStatement } from './audit.repository';

export type AuditAction =
  | 'workspace.created'
  | 'workspace.renamed'
  | 'roles_manager.disabled'
  | 'role.created'
  | 'role.updated'
  | 'role.deleted'
  | 'member.invited'
  | 'invitation.canceled'
  | 'member.joined'
  | 'member.updated'
  | 'member.removed'
  | 'plan.changed'
  // More free trial: a referred friend's month or a gift redeemed; details `{ until, why, days | months }`.
  | 'plan.trial_extended'
  // Clinical records are tombstoned, never destroyed inside the retention period; each delete is recorded.
  // Details name the patient and the record (date, file name), never clinical text.
  | 'history_entry.deleted'
  | 'document.deleted'
  // Invoices: issued ones are legal records (their rows are frozen by trigger); drafts leave no trace but this.
  | 'invoice.issued'
  | 'invoice.draft_deleted'
  | 'invoice.paid'
  // An issued invoice voided (its VERI*FACTU cancellation record written); details: number and reason.
  | 'invoice.voided'
  // Consent templates: each saved version is kept; details name the template and version.
  | 'consent_template.created'
  | 'consent_template.updated'
  | 'consent_template.deleted'
  // Sent consents: details name the envelope, the patient and the template version.
  | 'consent.sent'
  | 'consent.revoked'
  | 'consent.completed'
  // A patient's own account and their file (issue 15): details name the patient and who acted (therapist or patient).
  | 'patient.connect_invited'
  | 'patient.connected'
  | 'patient.disconnected'
  // The second factor (issue 32): the workspace's policy, and a member's own authenticator (in each of their workspaces).
  | 'second_factor_policy.enabled'
  | 'second_factor_policy.disabled'
  | 'second_factor.enabled'
  | 'second_factor.disabled'
  | 'second_factor.recovery_codes_regenerated'
  // A member's own passkeys (issue 32): details name the passkey.
  | 'passkey.added'
  | 'passkey.renamed'
  | 'passkey.removed';

export type AuditEvent = {
  workspaceId: string;
  actorId: string | null;
  action: AuditAction;
  target?: string;
  details?: Record<string, unknown>;
};

/** Written in the same transaction as the change it records, so the log never misses one. */
export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
  ) {}

  record(tx: DbOrTx, event: AuditEvent) {
    return auditRepository(tx).insert({ ...event, target: event.target ?? null, details: event.details ?? {} });
  }

  /** `record` as a statement not yet run, for a caller that sends it with its own write (one round trip less on a hot path). */
  statement(tx: DbOrTx, event: Omit<AuditEvent, 'details'> & { details?: AuditDetails }): AuditStatement {
    return auditRepository(tx).insertStatement({ ...event, target: event.target ?? null, details: event.details ?? {} });
  }

  async list(workspaceId: string, limit: number, before?: string) {
    const rows = await auditRepository(this.db).list(workspaceId, limit, before ? new Date(before) : undefined);
    const names = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.actorId).filter((x): x is string => !!x))) {
      const u = await this.users.findById(id);
      names.set(id, u ? [u.firstName, u.lastName].filter(Boolean).join(' ') : 'Usuario eliminado');
    }
    return rows.map((r) => ({
      id: r.id,
      action: r.action,
      actor: { id: r.actorId, name: r.actorId ? (names.get(r.actorId) ?? 'Usuario eliminado') : 'Operador' },
      target: r.target,
      details: r.details,
      createdAt: r.createdAt.toISOString(),
    }));
  }
}
