import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../api/workspaces-api';
import { describeAuditEvent } from './audit-labels';

const event = (action: string, target: string | null, details: Record<string, unknown> = {}): AuditEvent => ({
  id: '1',
  action,
  actor: { id: 'u1', name: 'Ana' },
  target,
  details,
  createdAt: '2025-01-01T10:00:00.000Z',
});
const names = (id: string) => (id === 'u2' ? 'Bruno Díaz' : null);

describe('describeAuditEvent', () => {
  it('names the role, the invited email and the renamed workspace', () => {
    expect(describeAuditEvent(event('role.created', 'Colaboración'), names)).toBe('Creó el rol «Colaboración»');
    expect(describeAuditEvent(event('member.invited', 'b@example.com'), names)).toBe('Invitó a b@example.com');
    expect(describeAuditEvent(event('workspace.renamed', 'Nueva', { from: 'Vieja' }), names)).toBe(
      'Cambió el nombre del espacio de «Vieja» a «Nueva»',
    );
  });
  it('turns member ids into names, and says so when the member left', () => {
    expect(describeAuditEvent(event('member.updated', 'u2'), names)).toContain('Bruno Díaz');
    expect(describeAuditEvent(event('member.removed', 'u9'), names)).toContain('ya no está');
  });
  it('says which clinical record was deleted and whose, without its text', () => {
    expect(describeAuditEvent(event('history_entry.deleted', 'e1', { patientName: 'Irene Campos', entryDate: '2026-11-20' }), names)).toBe(
      'Eliminó una entrada de la historia clínica de Irene Campos (del 20/11/2026)',
    );
    expect(describeAuditEvent(event('document.deleted', 'd1', { patientName: 'Irene Campos', name: 'informe.pdf' }), names)).toBe(
      'Eliminó el documento «informe.pdf» de Irene Campos',
    );
  });
  it('labels plans the way the app shows them', () => {
    expect(describeAuditEvent(event('plan.changed', 'advance'), names)).toBe('Cambió el plan a Premium');
    expect(describeAuditEvent(event('plan.changed', 'none'), names)).toBe('Quitó el plan del espacio');
  });
  it('still says something for an action it does not know', () => {
    expect(describeAuditEvent(event('patient.exported', 'x'), names)).toContain('patient.exported');
  });
  it('names the invoice by its number and the consent template with its version', () => {
    expect(describeAuditEvent(event('invoice.issued', 'i1', { number: '2026-0007', total: 6000 }), names)).toBe(
      'Emitió la factura 2026-0007',
    );
    expect(describeAuditEvent(event('invoice.voided', 'i1', { number: '2026-0007', reason: 'Duplicada' }), names)).toBe(
      'Anuló la factura 2026-0007',
    );
    expect(describeAuditEvent(event('consent.sent', 'Consentimiento informado de Lucía', { patientName: 'Lucía Romero' }), names)).toBe(
      'Envió a firmar «Consentimiento informado de Lucía» a Lucía Romero',
    );
    expect(describeAuditEvent(event('consent.completed', 'Protección de datos', { patientName: 'Lucía Romero' }), names)).toBe(
      'Quedó firmado el consentimiento «Protección de datos» de Lucía Romero',
    );
    expect(describeAuditEvent(event('consent_template.updated', 'Consentimiento informado', { version: 3 }), names)).toBe(
      'Modificó la plantilla de consentimiento «Consentimiento informado» (versión 3)',
    );
  });
});
