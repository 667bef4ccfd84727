import { RotateCw } from 'lucide-react';
import { genericMessage } from '@divan/core';
import { Button } from '@/components/ui/button';
import { useAuthStore } from '@/stores/auth-store';

/** Shown once the server answers 426: nothing will work until the new build is loaded. */
export function OutdatedBanner() {
  const outdated = useAuthStore((s) => s.outdatedClient);
  if (!outdated) return null;
  return (
    <div
      role="alert"
      data-testid="outdated-banner"
      className="fixed inset-x-0 top-0 z-[60] flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-b border-warning-fg/20 bg-warning-bg px-4 py-2.5 text-sm text-warning-fg shadow-sm"
    >
      <span className="font-medium">{genericMessage('outdated_client')}</span>
      <Button size="sm" variant="outline" onClick={() => window.location.reload()}>
        <RotateCw aria-hidden /> Recargar
      </Button>
    </div>
  );
}
