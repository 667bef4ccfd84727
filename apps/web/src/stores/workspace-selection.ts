import type { Workspace } from '@divan/core';

export const INITIAL_WORKSPACE_ID = '__initial';

export const isRealWorkspace = (id: string | null | undefined): id is string => !!id && id !== INITIAL_WORKSPACE_ID;

/** After each list update: the current one if still there, else the owned one, else the first (spec §3). */
export function pickCurrent(list: readonly Pick<Workspace, 'id' | 'isOwner'>[], currentId: string | null): string {
  if (currentId && list.some((w) => w.id === currentId)) return currentId;
  return (list.find((w) => w.isOwner) ?? list[0])?.id ?? INITIAL_WORKSPACE_ID;
}
