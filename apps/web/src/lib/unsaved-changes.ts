import { useCallback, useEffect, useId } from 'react';

/**
 * Which forms on screen hold typing that is not saved. One registry, read when the user leaves: the
 * shell's guard asks before a route change or a reload (UnsavedChangesGuard), and a dialog asks before
 * it closes (useConfirmDiscard). A plain map, not state: leaving reads it at that moment, and a form
 * that was just saved or discarded releases itself at once, before its next render.
 */
const dirtyForms = new Map<string, boolean>();

export const hasUnsavedChanges = (): boolean => [...dirtyForms.values()].some(Boolean);

/** Reports `isDirty` while the component is mounted; `release()` says "nothing to lose" right away. */
export function useUnsavedChanges(isDirty: boolean): { release: () => void } {
  const id = useId();
  useEffect(() => {
    dirtyForms.set(id, isDirty);
    return () => {
      dirtyForms.delete(id);
    };
  }, [id, isDirty]);
  const release = useCallback(() => dirtyForms.set(id, false), [id]);
  return { release };
}
