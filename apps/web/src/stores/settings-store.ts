import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type Theme = 'light' | 'dark' | 'system';

type SettingsState = {
  collapsedSidebar: boolean;
  theme: Theme;
  setCollapsedSidebar: (collapsed: boolean) => void;
  toggleSidebar: () => void;
  setTheme: (theme: Theme) => void;
};

/** Local, per-browser preferences (spec §3). index.html reads `state.theme` from this entry before paint. */
export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      collapsedSidebar: false,
      theme: 'light',
      setCollapsedSidebar: (collapsedSidebar) => set({ collapsedSidebar }),
      toggleSidebar: () => set((s) => ({ collapsedSidebar: !s.collapsedSidebar })),
      setTheme: (theme) => set({ theme }),
    }),
    {
      name: 'settings',
      version: 1,
      partialize: ({ collapsedSidebar, theme }) => ({ collapsedSidebar, theme }),
    },
  ),
);
