// Apart from permissions.ts: this file does not import CASL, so a page that only asks these questions
// does not download it (the web's shell, apps/web/docs/bundle-budget.md). They answer as the ability of
// permissions.ts does (`defineAbility`, `canAny`, `canOn`); permissions.test.ts compares them all.
import type { AbilityInput, Action, OwnedRecord, Subject } from './permissions';

type Input = Omit<AbilityInput, 'userId'>;
const grants = (p: AbilityInput['permissions'][number], action: Action, subject: Subject) =>
  p.subject === subject && (p.action === action || p.action === 'manage');

/**
 * Whether the member may do `action` on `subject` at all (on some record): an administrator may do
 * everything; anyone else when a permission gives the action, or `manage`, on the subject, with or
 * without "is owner".
 */
export function permitsAny({ isAdmin, permissions }: Input, action: Action, subject: Subject): boolean {
  return isAdmin || permissions.some((p) => grants(p, action, subject));
}

/** Whether the member may do `action` on this record: an "is owner" permission only on their own. */
export function permitsOn({ userId, isAdmin, permissions }: AbilityInput, action: Action, subject: Subject, record: OwnedRecord): boolean {
  return isAdmin || permissions.some((p) => grants(p, action, subject) && (!p.ownOnly || record.ownerId === userId));
}

/** The two questions a screen asks, as one object (the shape of an ability's `can`, plus `canOn`). */
export type Permits = {
  can(action: Action, subject: Subject): boolean;
  canOn(action: Action, subject: Subject, record: OwnedRecord): boolean;
};
export const permitsOf = (input: AbilityInput): Permits => ({
  can: (action, subject) => permitsAny(input, action, subject),
  canOn: (action, subject, record) => permitsOn(input, action, subject, record),
});
