import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { setHttpHooks } from '@/lib/http';
import { useToasterStore } from '@/lib/toast';
import { syncAuthAcrossTabs, useAuthStore } from '@/stores/auth-store';
import { OutdatedBanner } from './components/outdated-banner';
import { useThemeEffect } from './hooks/use-theme-effect';
import { useUpdateChecker } from './hooks/use-update-checker';

const AppToaster = lazy(() => import('./components/app-toaster').then((m) => ({ default: m.AppToaster })));

setHttpHooks({ onOutdatedClient: () => useAuthStore.getState().setOutdatedClient(true) });

/**
 * App-wide concerns that every page needs. The query client is not here: it lives in the signed-in
 * shell, so the sign-in page stays within its size budget.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const toasterWanted = useToasterStore((s) => s.wanted);
  useThemeEffect();
  useUpdateChecker();
  useEffect(() => syncAuthAcrossTabs(), []);

  return (
    <>
      <OutdatedBanner />
      {children}
      {toasterWanted ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </>
  );
}
