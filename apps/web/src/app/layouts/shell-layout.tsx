import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useChatLive } from '@/features/chat/api/use-chat-live';
import { useMe } from '@/features/profile/api/profile-api';
import { useWorkspacesSync } from '@/features/workspaces/api/workspaces-api';
import { TrialBanner } from '@/features/workspaces/components/trial-banner';
import { queryClient } from '@/lib/query-client';
import { onFirstInput } from '@/lib/first-input';
import { preloadToasterOnFirstInput } from '@/lib/toast';
import { setStepUpHandler } from '@/lib/step-up';
import { Sidebar } from '../components/sidebar';
import { TopBar } from '../components/top-bar';
import { UnsavedChangesGuard } from '../components/unsaved-changes-guard';
import { useRealtime } from '../hooks/use-realtime';
import type { moreScreens as MoreScreens } from '../more-screens';
// The dashboard is part of the shell's chunk, not a chunk of its own: its pieces shared with other screens (cards,
// rows, badges, icons) were ~34 small files, ~7 KB more gzipped than one (docs/bundle-budget.md, 08/12/2026).
import * as dashboardRoute from '../routes/dashboard';

const loadPalette = () => import('../components/command-palette');
const CommandPalette = lazy(() => loadPalette().then((m) => ({ default: m.CommandPalette })));
// Radix Dialog and its focus and scroll locks (~15 KB gzipped): only phones open this sheet.
const MobileNav = lazy(() => import('../components/mobile-nav').then((m) => ({ default: m.MobileNav })));
// Step-up (issue 32): loaded when a sensitive action first asks for a second factor.
const StepUpDialog = lazy(() => import('@/features/auth/components/step-up-dialog').then((m) => ({ default: m.StepUpDialog })));

/** The screens drawn inside the shell: the dashboard (already here), and the others through ./more-screens (their preload lists). */
export type ShellScreen = 'dashboard' | keyof typeof MoreScreens;
export const shellScreen = (name: ShellScreen): Promise<object> =>
  name === 'dashboard' ? Promise.resolve(dashboardRoute) : import('../more-screens').then((m): Promise<object> => m.moreScreens[name]());

/** Server state exists only once signed in, so the query client starts with the shell. */
export function ShellLayout() {
  // Toasts answer what the user does: sonner loads with their first press or key, not with the page.
  useEffect(preloadToasterOnFirstInput, []);
  // The other screens' preload lists: before the first click on the sidebar, not with the dashboard.
  useEffect(() => onFirstInput(() => void import('../more-screens'), ['pointermove', 'pointerdown', 'keydown', 'touchstart']), []);
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

/** The signed-in frame: sidebar (a sheet on phones), top bar, command palette and the realtime link. */
function Shell() {
  const me = useMe();
  useWorkspacesSync();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [paletteLoaded, setPaletteLoaded] = useState(false);
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const [stepUp, setStepUp] = useState<{ resolve: (ok: boolean) => void } | null>(null);
  useEffect(() => setStepUpHandler(() => new Promise<boolean>((resolve) => setStepUp({ resolve }))), []);
  useRealtime();
  useChatLive();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPaletteLoaded(true);
        setPaletteOpen((open) => !open);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // A new screen starts at the top and with the phone menu closed.
  useEffect(() => {
    window.scrollTo(0, 0);
    setMenuOpen(false);
  }, [pathname]);

  const openPalette = () => {
    setPaletteLoaded(true);
    setPaletteOpen(true);
  };

  return (
    <div className="flex min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Saltar al contenido
      </a>
      <Sidebar />
      {menuLoaded ? (
        <Suspense fallback={null}>
          <MobileNav open={menuOpen} onOpenChange={setMenuOpen} />
        </Suspense>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar
          profile={me.data ?? null}
          onOpenMenu={() => {
            setMenuLoaded(true);
            setMenuOpen(true);
          }}
          onOpenPalette={openPalette}
          onPreloadPalette={() => void loadPalette()}
        />
        <TrialBanner />
        {navigation.state === 'loading' ? (
          <div className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-primary" role="progressbar" aria-label="Cargando" />
        ) : null}
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-8 sm:py-10">
          <Outlet />
        </main>
      </div>
      <UnsavedChangesGuard />
      {paletteLoaded ? (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
        </Suspense>
      ) : null}
      {stepUp ? (
        <Suspense fallback={null}>
          <StepUpDialog
            onDone={(ok) => {
              stepUp.resolve(ok);
              setStepUp(null);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

export { ShellLayout as Component };
