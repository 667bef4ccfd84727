import {
  defineAbility,
  holdsPermission,
  permissionsNotHeld,
  SUBJECT_NAMES,
  SUBJECTS,
  type Action,
  type AppAbility,
  type Permission,
  type Subject,
} from '@divan/core';

export type SingleAction = Exclude<Action, 'manage'>;
export const MATRIX_ACTIONS: SingleAction[] = ['read', 'create', 'update', 'delete'];

export type Row = { actions: SingleAction[]; ownOnly: boolean };
export type Matrix = Record<Subject, Row>;

export const allowedActions = (s: Subject): readonly SingleAction[] => SUBJECTS[s].actions;

export function emptyMatrix(): Matrix {
  return Object.fromEntries(SUBJECT_NAMES.map((s) => [s, { actions: [], ownOnly: false }])) as unknown as Matrix;
}

/**
 * A role's permissions as rows of the matrix. `manage` ticks every action of its subject. The matrix
 * has one "only their own" switch per row: if any permission on the subject is limited that way, the
 * row is (the narrower reading, so editing a role never widens access by surprise).
 */
export function toMatrix(permissions: readonly Permission[]): Matrix {
  const m = emptyMatrix();
  for (const p of permissions) {
    const row = m[p.subject];
    if (!row) continue;
    const add = p.action === 'manage' ? allowedActions(p.subject) : [p.action];
    row.actions = MATRIX_ACTIONS.filter((a) => row.actions.includes(a) || add.includes(a));
    if (p.ownOnly && SUBJECTS[p.subject].ownable) row.ownOnly = true;
  }
  return m;
}

/** Back to permissions: a row with every action becomes one `manage` (they cannot be mixed). */
export function toPermissions(m: Matrix): Permission[] {
  const out: Permission[] = [];
  for (const subject of SUBJECT_NAMES) {
    const row = m[subject];
    if (row.actions.length === 0) continue;
    const own = row.ownOnly && SUBJECTS[subject].ownable ? { ownOnly: true } : {};
    if (allowedActions(subject).every((a) => row.actions.includes(a))) out.push({ action: 'manage', subject, ...own });
    else for (const action of MATRIX_ACTIONS.filter((a) => row.actions.includes(a))) out.push({ action, subject, ...own });
  }
  return out;
}

/**
 * Ticking or unticking one cell. Creating, editing or deleting needs seeing, so those tick "Ver"
 * too; unticking "Ver" clears the row.
 */
export function toggleAction(row: Row, subject: Subject, action: SingleAction, on: boolean): Row {
  const allowed = allowedActions(subject);
  if (!allowed.includes(action)) return row;
  if (!on) return action === 'read' ? { ...row, actions: [] } : { ...row, actions: row.actions.filter((a) => a !== action) };
  const next = new Set([...row.actions, action, ...(allowed.includes('read') ? (['read'] as const) : [])]);
  return { ...row, actions: MATRIX_ACTIONS.filter((a) => next.has(a)) };
}

/** "Todo": every action of the subject, or none. */
export function toggleAll(row: Row, subject: Subject, on: boolean): Row {
  return { ...row, actions: on ? [...allowedActions(subject)] : [] };
}

export const hasAll = (row: Row, subject: Subject) => allowedActions(subject).every((a) => row.actions.includes(a));

/** Subjects in the order of their group, as the matrix shows them. */
export function groupedSubjects(): { group: string; subjects: Subject[] }[] {
  const groups = new Map<string, Subject[]>();
  for (const s of SUBJECT_NAMES) groups.set(SUBJECTS[s].group, [...(groups.get(SUBJECTS[s].group) ?? []), s]);
  return [...groups].map(([group, subjects]) => ({ group, subjects }));
}

/**
 * What an editor may put in a role (nobody grants what they do not hold): the permissions they hold,
 * and whatever the role already had. `cell` says whether a cell may be ticked at all (held in some
 * form, "is owner" at least); `missing` lists what a permission list would grant beyond that.
 */
export function grantScope(ability: AppAbility, had: readonly Permission[]) {
  const before = defineAbility({ userId: '', isAdmin: false, permissions: [...had] });
  const holds = (p: Permission) => holdsPermission(ability, p) || holdsPermission(before, p);
  return {
    cell: (subject: Subject, action: SingleAction) => holds({ action, subject, ...(SUBJECTS[subject].ownable ? { ownOnly: true } : {}) }),
    missing: (perms: readonly Permission[]) => permissionsNotHeld(ability, perms).filter((p) => !holdsPermission(before, p)),
  };
}
