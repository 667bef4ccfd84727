import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AuthTokens, Profile } from '@divan/core';
import { writeOnChange } from '@/lib/write-on-change-storage';

/** `switch`: signed out to continue as someone else (e.g. the invited email), back to the same page. */
export type SignOutReason = 'user' | 'expired' | 'switch';

type PersistedAuth = {
  userId: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  profile: Profile | null;
  /** True exactly when a refresh token is held (spec §3). */
  loggedIn: boolean;
};

export type AuthState = PersistedAuth & {
  /** Set by a 426 answer; not persisted, so a reload (which fetches the new build) clears it. */
  outdatedClient: boolean;
  /** Set when the socket was refused for too many open sessions; not persisted. */
  tooManySessions: boolean;
  hydrated: boolean;
  /** Why the last sign-out happened, so the guard can tell "you signed out" from "your session expired". */
  lastSignOut: SignOutReason | null;
  setSession: (tokens: AuthTokens) => void;
  setTokens: (accessToken: string, refreshToken?: string) => void;
  setProfile: (profile: Profile) => void;
  setOutdatedClient: (value: boolean) => void;
  setTooManySessions: (value: boolean) => void;
  clear: (reason: SignOutReason) => void;
  markHydrated: () => void;
};

const signedOut: PersistedAuth = {
  userId: null,
  accessToken: null,
  refreshToken: null,
  profile: null,
  loggedIn: false,
};

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...signedOut,
      outdatedClient: false,
      tooManySessions: false,
      hydrated: false,
      lastSignOut: null,
      setSession: ({ userId, accessToken, refreshToken, profile }) =>
        set({ userId, accessToken, refreshToken, profile, loggedIn: true, lastSignOut: null, tooManySessions: false }),
      // A refresh answer without a refresh token keeps the previous one (spec §4).
      setTokens: (accessToken, refreshToken) =>
        set((s) => {
          const next = refreshToken ?? s.refreshToken;
          return { accessToken, refreshToken: next, loggedIn: Boolean(next) };
        }),
      setProfile: (profile) => set({ profile }),
      setOutdatedClient: (outdatedClient) => set({ outdatedClient }),
      setTooManySessions: (tooManySessions) => set({ tooManySessions }),
      clear: (reason) => set({ ...signedOut, lastSignOut: reason, tooManySessions: false }),
      markHydrated: () => set({ hydrated: true }),
    }),
    {
      name: 'auth',
      version: 1,
      // Shared by every tab: a tab writes only its own changes, never back what it read (token rotation).
      storage: createJSONStorage(() => writeOnChange(localStorage)),
      partialize: ({ userId, accessToken, refreshToken, profile, loggedIn }) => ({
        userId,
        accessToken,
        refreshToken,
        profile,
        loggedIn,
      }),
      // On load with no refresh token, whatever else was stored is stale (spec §3).
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<PersistedAuth>;
        if (!saved.refreshToken) return { ...current, ...signedOut };
        return { ...current, ...saved, loggedIn: true };
      },
      // Runs after hydration; actions are safe to call here, the store variable may not be assigned yet.
      onRehydrateStorage: () => (state) => state?.markHydrated(),
    },
  ),
);

/** Keeps tabs in step: signing out (or in) in one tab applies to the others. */
export function syncAuthAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === 'auth') void useAuthStore.persist.rehydrate();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
