import { useState } from 'react';
import { Link } from 'react-router';
import { Sparkles, X } from 'lucide-react';
import { useCan } from '@/lib/permits';
import { cn } from '@/lib/cn';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { planNotice } from '../utils/plan-status';

const dismissedKey = (id: string) => `divan:plan-notice-dismissed:${id}`;

/** A slim line under the top bar for whoever decides on the plan (the owner or billing managers). */
export function TrialBanner() {
  const ws = useCurrentWorkspace();
  // The owner always decides on the plan; anyone else needs the billing permission.
  const decides = useCan('update', 'workspace_billing') || ws.isOwner;
  const [dismissed, setDismissed] = useState(() => new Set<string>());
  if (!isRealWorkspace(ws.id)) return null;
  const notice = planNotice(ws);
  if (!notice || !decides) return null;
  if (notice.dismissible && (dismissed.has(ws.id) || sessionStorage.getItem(dismissedKey(ws.id)))) return null;

  const dismiss = () => {
    sessionStorage.setItem(dismissedKey(ws.id), '1');
    setDismissed((d) => new Set(d).add(ws.id));
  };

  const banner = (
    <div
      role="status"
      data-testid="plan-notice"
      className={cn(
        'flex items-center gap-3 border-b px-4 py-2 text-sm sm:px-8',
        notice.tone === 'info' ? 'bg-accent text-accent-foreground' : 'bg-warning-bg text-warning-fg',
      )}
    >
      <Sparkles className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0 flex-1">
        <span className="font-medium">{notice.text}</span>{' '}
        <Link to="/plans" className="whitespace-nowrap font-medium underline underline-offset-2">
          {notice.tone === 'info' ? 'Ver planes' : 'Contratar'}
        </Link>
      </p>
      {notice.dismissible ? (
        <button
          type="button"
          onClick={dismiss}
          className="rounded-md p-1 opacity-80 hover:bg-black/5 hover:opacity-100 dark:hover:bg-white/10"
          aria-label="Ocultar aviso de la prueba"
        >
          <X className="size-4" aria-hidden />
        </button>
      ) : null}
    </div>
  );
  return banner;
}
