import { useEffect } from 'react';
import { toast } from '@/lib/toast';
import { APP_VERSION, UPDATE_RELOAD_DELAY_MS } from '@divan/core';
import { startUpdateChecker } from '@/lib/update-checker';

/** Spec §4: a silent poll; when a new build is out, a 30 s notice, then the page reloads itself. */
export function useUpdateChecker(): void {
  useEffect(() => {
    // The dev server has no version file; only built apps check.
    if (!import.meta.env.PROD) return;
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    const stop = startUpdateChecker(APP_VERSION, () => {
      toast.info('Hay una nueva versión de Diván. La página se recargará en 30 segundos.', {
        duration: UPDATE_RELOAD_DELAY_MS,
        action: { label: 'Recargar ahora', onClick: () => window.location.reload() },
      });
      reloadTimer = setTimeout(() => window.location.reload(), UPDATE_RELOAD_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(reloadTimer);
    };
  }, []);
}
