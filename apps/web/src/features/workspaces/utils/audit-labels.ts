import { PLAN_LABELS, displayDayEs, type PlanId } from '@divan/core';
import type { AuditEvent } from '../api/workspaces-api';

/**
 * Spanish sentence for each audit action the server records (AuditAction in the server's audit
 * module). `nameOf` turns a member's user id into a name where the event only stores the id.
 */
export function describeAuditEvent(e: AuditEvent, nameOf: (userId: string) => string | null): string {
  const target = e.target ?? '';
  const member = () => (e.target ? (nameOf(e.target) ?? 'un miembro que ya no está en el espacio') : 'un miembro');
  switch (e.action) {
    case 'workspace.created':
      return `Creó el espacio «${target}»`;
    case 'workspace.renamed':
      return typeof e.details.from === 'string'
        ? `Cambió el nombre del espacio de «${e.details.from}» a «${target}»`
        : `Cambió el nombre del espacio a «${target}»`;
    case 'roles_manager.disabled':
      return 'Desactivó la gestión propia de roles';
    case 'role.created':
      return `Creó el rol «${target}»`;
    case 'role.updated':
      return `Modificó el rol «${target}»`;
    case 'role.deleted':
      return `Eliminó el rol «${target}»`;
    case 'member.invited':
      return `Invitó a ${target}`;
    case 'invitation.canceled':
      return `Canceló la invitación de ${target}`;
    case 'member.joined':
      return `Se unió al espacio (${target})`;
    case 'member.updated':
      return `Cambió los roles, la comisión o el cobro de ${member()}`;
    case 'member.removed':
      return `Quitó del espacio a ${member()}`;
    case 'plan.changed':
      return target in PLAN_LABELS ? `Cambió el plan a ${PLAN_LABELS[target as PlanId]}` : 'Quitó el plan del espacio';
    case 'plan.trial_extended':
      return `Amplió la prueba gratuita hasta el ${typeof e.details.until === 'string' ? displayDayEs(e.details.until.slice(0, 10)) : ''} (${e.details.why === 'gift' ? 'regalo canjeado' : 'invitación de un colega'})`;
    case 'history_entry.deleted':
      return `Eliminó una entrada de la historia clínica de ${patientOf(e)}${typeof e.details.entryDate === 'string' ? ` (del ${displayDayEs(e.details.entryDate)})` : ''}`;
    case 'document.deleted':
      return `Eliminó el documento ${typeof e.details.name === 'string' ? `«${e.details.name}» ` : ''}de ${patientOf(e)}`;
    case 'invoice.issued':
      return `Emitió la factura ${typeof e.details.number === 'string' ? e.details.number : ''}`.trimEnd();
    case 'invoice.paid':
      return `Registró el pago de la factura ${typeof e.details.number === 'string' ? e.details.number : ''}`.trimEnd();
    case 'invoice.voided':
      return `Anuló la factura ${typeof e.details.number === 'string' ? e.details.number : ''}`.trimEnd();
    case 'invoice.draft_deleted':
      return 'Eliminó un borrador de factura';
    case 'consent_template.created':
      return `Creó la plantilla de consentimiento «${target}»`;
    case 'consent_template.updated':
      return `Modificó la plantilla de consentimiento «${target}»${typeof e.details.version === 'number' ? ` (versión ${e.details.version})` : ''}`;
    case 'consent_template.deleted':
      return `Archivó la plantilla de consentimiento «${target}»`;
    case 'consent.sent':
      return `Envió a firmar «${target}» a ${patientOf(e)}`;
    case 'consent.revoked':
      return `Anuló el consentimiento «${target}» de ${patientOf(e)}`;
    case 'consent.completed':
      return `Quedó firmado el consentimiento «${target}» de ${patientOf(e)}`;
    case 'patient.connect_invited':
      return `Invitó a ${patientOf(e)} a conectar con su cuenta de Diván`;
    case 'patient.connected':
      return `Se conectó la ficha de ${patientOf(e)} con su cuenta de Diván`;
    case 'patient.disconnected':
      return e.details.by === 'patient'
        ? `Se desconectó la ficha de ${patientOf(e)} desde su cuenta de Diván`
        : `Desconectó a ${patientOf(e)} de su cuenta de Diván`;
    case 'second_factor_policy.enabled':
      return 'Activó «Segundo factor obligatorio» para todo el equipo';
    case 'second_factor_policy.disabled':
      return 'Desactivó «Segundo factor obligatorio»';
    case 'second_factor.enabled':
      return 'Configuró su app de autenticación';
    case 'second_factor.disabled':
      return 'Quitó su app de autenticación';
    case 'second_factor.recovery_codes_regenerated':
      return 'Generó nuevos códigos de recuperación';
    case 'passkey.added':
      return `Añadió la llave de acceso ${passkeyOf(e)}`;
    case 'passkey.renamed':
      return `Cambió el nombre de una llave de acceso a ${passkeyOf(e)}`;
    case 'passkey.removed':
      return `Eliminó la llave de acceso ${passkeyOf(e)}`;
    default:
      return `Acción «${e.action}»${target ? ` sobre ${target}` : ''}`;
  }
}

const passkeyOf = (e: AuditEvent) => (typeof e.details.name === 'string' && e.details.name ? `«${e.details.name}»` : '');

const patientOf = (e: AuditEvent) =>
  typeof e.details.patientName === 'string' && e.details.patientName ? e.details.patientName : 'un paciente';
