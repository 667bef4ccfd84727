import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';

/**
 * Permissions of spec §3/§6: an action on a subject, optionally only on records the member owns or
 * is assigned ("is owner"). One model, used by the server (guards and query filters) and the web
 * (what to hide or disable).
 */
export const ACTIONS = ['manage', 'read', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

type SubjectRule = { label: string; actions: readonly Exclude<Action, 'manage'>[]; ownable: boolean; group: string };

const CRUD = ['read', 'create', 'update', 'delete'] as const;
const RU = ['read', 'update'] as const;

export const SUBJECTS = {
  workspace_profile: { label: 'Perfil del espacio', actions: RU, ownable: false, group: 'Espacio de trabajo' },
  members: { label: 'Miembros', actions: CRUD, ownable: false, group: 'Espacio de trabajo' },
  roles: { label: 'Roles', actions: CRUD, ownable: false, group: 'Espacio de trabajo' },
  workspace_billing: { label: 'Facturación del espacio', actions: RU, ownable: false, group: 'Espacio de trabajo' },
  patient_files: { label: 'Fichas de pacientes', actions: CRUD, ownable: true, group: 'Pacientes' },
  patient_treatment: { label: 'Tratamiento', actions: RU, ownable: true, group: 'Pacientes' },
  patient_billing: { label: 'Datos de facturación del paciente', actions: RU, ownable: true, group: 'Pacientes' },
  patient_documents: { label: 'Documentos', actions: CRUD, ownable: true, group: 'Pacientes' },
  patient_histories: { label: 'Historia clínica', actions: CRUD, ownable: true, group: 'Pacientes' },
  patient_assignment: { label: 'Asignación de pacientes', actions: RU, ownable: false, group: 'Pacientes' },
  sessions: { label: 'Sesiones', actions: CRUD, ownable: true, group: 'Agenda' },
  public_services: { label: 'Reserva online', actions: CRUD, ownable: true, group: 'Agenda' },
  availability_restrictions: { label: 'Días bloqueados', actions: CRUD, ownable: true, group: 'Agenda' },
  consent_templates: { label: 'Plantillas de consentimiento', actions: CRUD, ownable: false, group: 'Consentimientos' },
  sent_consents: { label: 'Consentimientos enviados', actions: CRUD, ownable: true, group: 'Consentimientos' },
  invoices: { label: 'Facturas', actions: CRUD, ownable: true, group: 'Facturación' },
  workspace_invoices: { label: 'Facturas del espacio', actions: CRUD, ownable: false, group: 'Facturación' },
} as const satisfies Record<string, SubjectRule>;
export type Subject = keyof typeof SUBJECTS;
export const SUBJECT_NAMES = Object.keys(SUBJECTS) as Subject[];

export type Permission = { action: Action; subject: Subject; ownOnly?: boolean };

export const ACTION_LABELS: Record<Action, string> = {
  manage: 'Todo',
  read: 'Ver',
  create: 'Crear',
  update: 'Editar',
  delete: 'Eliminar',
};

export type PermissionProblem = 'invalid_permission' | 'invalid_action_combination' | 'duplicate_permissions' | 'permission_missing';

/**
 * A role's permission list is valid when every action exists for its subject, "is owner" is used only
 * on subjects that have an owner, nothing repeats, and `manage` is not mixed with single actions on
 * the same subject.
 */
export function checkPermissions(perms: Permission[]): PermissionProblem | null {
  if (perms.length === 0) return 'permission_missing';
  const seen = new Set<string>();
  const bySubject = new Map<Subject, Permission[]>();
  for (const p of perms) {
    const rule = SUBJECTS[p.subject] as SubjectRule | undefined;
    if (!rule || !ACTIONS.includes(p.action)) return 'invalid_permission';
    if (p.action !== 'manage' && !rule.actions.includes(p.action)) return 'invalid_action_combination';
    if (p.ownOnly && !rule.ownable) return 'invalid_action_combination';
    const key = `${p.subject}:${p.action}`;
    if (seen.has(key)) return 'duplicate_permissions';
    seen.add(key);
    bySubject.set(p.subject, [...(bySubject.get(p.subject) ?? []), p]);
  }
  for (const list of bySubject.values()) {
    if (list.some((p) => p.action === 'manage') && list.length > 1) return 'invalid_action_combination';
  }
  return null;
}

/** The record shape abilities check: `ownerId` is the member who owns or is assigned it. */
export type OwnedRecord = { ownerId?: string | null };
export type AppAbility = MongoAbility<[Action, Subject | 'all']>;

export type AbilityInput = { userId: string; isAdmin: boolean; permissions: Permission[] };

export function defineAbility({ userId, isAdmin, permissions }: AbilityInput): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  if (isAdmin) can('manage', 'all');
  for (const p of permissions) {
    if (p.ownOnly) can(p.action, p.subject, { ownerId: userId } as never);
    else can(p.action, p.subject);
  }
  return build();
}

/**
 * How a list must be filtered for this member: everything, only what they own, or nothing. The
 * server turns `own` into a WHERE clause on the owner column, never a post-filter.
 */
export type Scope = { kind: 'all' } | { kind: 'own'; ownerId: string } | { kind: 'none' };

export function scopeFor(ability: AppAbility, action: Exclude<Action, 'manage'>, subject: Subject, userId: string): Scope {
  const rules = ability.rulesFor(action, subject);
  if (rules.length === 0) return { kind: 'none' };
  if (rules.some((r) => !r.conditions && !r.inverted)) return { kind: 'all' };
  return { kind: 'own', ownerId: userId };
}

/** Whether the member may do `action` on `subject` at all (on some record). */
export const canAny = (ability: AppAbility, action: Action, subject: Subject) => ability.can(action, subject);

/** Whether the member may do `action` on this record. */
export function canOn(ability: AppAbility, action: Action, subject: Subject, record: OwnedRecord): boolean {
  const rules = ability.rulesFor(action, subject);
  return rules.some((r) => !r.inverted && (!r.conditions || (r.conditions as OwnedRecord).ownerId === record.ownerId));
}

/**
 * Whether an ability holds a permission, so that its holder may grant it (to a role or a member).
 * Held means covered for every record the permission reaches: the same action or `manage` on the
 * subject (or an administrator's `manage all`); a `manage` permission needs every action of its
 * subject; an "is owner" permission is covered by the same action with or without "is owner", but a
 * full one only by a full one — holding your own patients does not let you hand out everyone's.
 */
export function holdsPermission(ability: AppAbility, p: Permission): boolean {
  const rule = SUBJECTS[p.subject] as SubjectRule | undefined;
  if (!rule) return false;
  const actions = p.action === 'manage' ? rule.actions : [p.action];
  return actions.every((a) => ability.rulesFor(a, p.subject).some((r) => !r.inverted && (p.ownOnly === true || !r.conditions)));
}

/** The permissions of `perms` this ability does not hold (empty: it may grant them all). */
export const permissionsNotHeld = (ability: AppAbility, perms: readonly Permission[]) => perms.filter((p) => !holdsPermission(ability, p));

/** "Ver · Facturas (solo sus registros)": how a permission is named to the user, as the role editor does. */
export function permissionLabel(p: Permission): string {
  const rule = SUBJECTS[p.subject] as SubjectRule | undefined;
  const own = p.ownOnly ? (rule?.group === 'Pacientes' ? ' (solo sus pacientes)' : ' (solo sus registros)') : '';
  return `${ACTION_LABELS[p.action]} · ${rule?.label ?? p.subject}${own}`;
}

/** Why a grant is refused (`access_denied`), in the words the user reads. */
export const grantRefusal = {
  adminRole: 'Solo un administrador puede conceder el rol de administrador.',
  adminMember: 'Solo un administrador puede cambiar los roles de un administrador.',
  removeAdmin: 'Solo un administrador puede quitar a un administrador del espacio.',
  ownRoles: 'No puedes cambiar tus propios roles: pídeselo a otra persona con permiso para editar miembros.',
  ownTerms: 'No puedes cambiar tu propia comisión ni quién recibe tus cobros: pídeselo a un administrador.',
  notHeld: (perms: readonly Permission[]) => `No puedes conceder permisos que tú no tienes: ${perms.map(permissionLabel).join(', ')}.`,
} as const;
