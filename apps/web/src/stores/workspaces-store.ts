import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { NO_PLAN_FEATURES, type Workspace } from '@divan/core';
import { onSessionEnd } from '@/lib/auth-session';
import { useAuthStore } from './auth-store';
import { INITIAL_WORKSPACE_ID, pickCurrent } from './workspace-selection';

export { INITIAL_WORKSPACE_ID, isRealWorkspace, pickCurrent } from './workspace-selection';

/** Shown until the list arrives (spec §3): no permissions, so nothing is offered by mistake. */
export const placeholderWorkspace: Workspace = {
  id: INITIAL_WORKSPACE_ID,
  name: 'Cargando…',
  logoUrl: null,
  isOwner: false,
  maxSeats: 0,
  template: 'freelance',
  rolesManager: 'system',
  roles: [],
  owner: { id: '', firstName: '', lastName: null },
  billingInfo: {},
  plan: { id: null, periodEnd: null, renovationEnabled: false, freeTrialEnd: null, seats: 0, promptUpgrade: false },
  features: NO_PLAN_FEATURES,
  me: { memberId: '', isAdmin: false, permissions: [] },
};

type Persisted = {
  /** Whose list this is: a different user on this browser never starts in the previous one's workspace. */
  userId: string | null;
  workspaces: Workspace[];
  currentId: string;
};

type WorkspacesState = Persisted & {
  setWorkspaces: (userId: string, list: Workspace[]) => void;
  /** One workspace changed (renamed, new logo, joined, created): replace it or add it. */
  upsert: (workspace: Workspace) => void;
  select: (id: string) => void;
  reset: () => void;
};

const empty: Persisted = { userId: null, workspaces: [], currentId: INITIAL_WORKSPACE_ID };

export const useWorkspacesStore = create<WorkspacesState>()(
  persist(
    (set) => ({
      ...empty,
      setWorkspaces: (userId, workspaces) =>
        set((s) => ({
          userId,
          workspaces,
          currentId: pickCurrent(workspaces, s.userId === userId ? s.currentId : null),
        })),
      upsert: (workspace) =>
        set((s) => {
          const exists = s.workspaces.some((w) => w.id === workspace.id);
          const workspaces = exists ? s.workspaces.map((w) => (w.id === workspace.id ? workspace : w)) : [...s.workspaces, workspace];
          return { workspaces, currentId: pickCurrent(workspaces, s.currentId) };
        }),
      select: (id) => set((s) => (s.workspaces.some((w) => w.id === id) ? { currentId: id } : s)),
      reset: () => set(empty),
    }),
    {
      name: 'workspaces',
      version: 1,
      partialize: ({ userId, workspaces, currentId }) => ({ userId, workspaces, currentId }),
    },
  ),
);

// Signing out (or an expired session) forgets the list, like the auth data (spec §4). The list also
// belongs to one user: another account on this browser (or a sign-out in another tab) starts afresh.
onSessionEnd(() => useWorkspacesStore.getState().reset());
const forgetOtherUsers = (userId: string | null) => {
  const { userId: owner, reset } = useWorkspacesStore.getState();
  if (owner && owner !== userId) reset();
};
forgetOtherUsers(useAuthStore.getState().userId);
useAuthStore.subscribe((s) => forgetOtherUsers(s.userId));

const selectCurrent = (s: WorkspacesState) => s.workspaces.find((w) => w.id === s.currentId) ?? placeholderWorkspace;

/** The workspace the member is working in; the placeholder until the list has loaded. */
export const useCurrentWorkspace = (): Workspace => useWorkspacesStore(selectCurrent);
export const useCurrentWorkspaceId = (): string => useWorkspacesStore((s) => s.currentId);
export const getCurrentWorkspace = (): Workspace => selectCurrent(useWorkspacesStore.getState());
