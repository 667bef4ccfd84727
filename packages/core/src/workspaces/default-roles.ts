import type { Permission } from './permissions';

export const WORKSPACE_TEMPLATES = ['freelance', 'team', 'clinic'] as const;
export type WorkspaceTemplate = (typeof WORKSPACE_TEMPLATES)[number];

export const TEMPLATE_LABELS: Record<WorkspaceTemplate, string> = { freelance: 'Individual', team: 'Equipo', clinic: 'Clínica' };

/** Default name pattern of each template (spec §2). */
export function defaultWorkspaceName(template: WorkspaceTemplate, firstName: string): string {
  return { freelance: `Consulta de ${firstName}`, team: `Equipo de ${firstName}`, clinic: `Clínica de ${firstName}` }[template];
}

export const ADMIN_ROLE_NAME = 'Administrador';

type RoleDef = { name: string; permissions: Permission[] };
const all = (subject: Permission['subject'], ownOnly = false): Permission => ({
  action: 'manage',
  subject,
  ...(ownOnly ? { ownOnly } : {}),
});
const p = (action: Permission['action'], subject: Permission['subject'], ownOnly = false): Permission => ({
  action,
  subject,
  ...(ownOnly ? { ownOnly } : {}),
});

/** A therapist in a team sees and treats every patient of the workspace. */
const TEAM_THERAPIST: RoleDef = {
  name: 'Terapeuta',
  permissions: [
    all('patient_files'),
    all('patient_treatment'),
    all('patient_billing'),
    all('patient_documents'),
    all('patient_histories'),
    p('read', 'patient_assignment'),
    all('sessions'),
    all('public_services', true),
    all('availability_restrictions', true),
    p('read', 'consent_templates'),
    all('sent_consents'),
    all('invoices', true),
    p('read', 'members'),
    p('read', 'workspace_profile'),
  ],
};

/** In a clinic a therapist sees only the patients assigned to them. */
const CLINIC_THERAPIST: RoleDef = {
  name: 'Terapeuta',
  permissions: [
    all('patient_files', true),
    all('patient_treatment', true),
    all('patient_billing', true),
    all('patient_documents', true),
    all('patient_histories', true),
    all('sessions', true),
    all('public_services', true),
    all('availability_restrictions', true),
    p('read', 'consent_templates'),
    all('sent_consents', true),
    all('invoices', true),
    p('read', 'members'),
    p('read', 'workspace_profile'),
  ],
};

/** Reception schedules and bills but reads no clinical data (no treatment, documents or history). */
const RECEPTION: RoleDef = {
  name: 'Recepción',
  permissions: [
    p('read', 'patient_files'),
    p('create', 'patient_files'),
    p('update', 'patient_files'),
    all('patient_billing'),
    all('patient_assignment'),
    all('sessions'),
    p('read', 'public_services'),
    all('availability_restrictions'),
    p('read', 'consent_templates'),
    p('read', 'sent_consents'),
    p('create', 'sent_consents'),
    all('invoices'),
    all('workspace_invoices'),
    p('read', 'members'),
    p('read', 'workspace_profile'),
  ],
};

/** Roles a new workspace starts with, besides the built-in administrator. */
export const DEFAULT_ROLES: Record<WorkspaceTemplate, RoleDef[]> = {
  freelance: [],
  team: [TEAM_THERAPIST],
  clinic: [CLINIC_THERAPIST, RECEPTION],
};
