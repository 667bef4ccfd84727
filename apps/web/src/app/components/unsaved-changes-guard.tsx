import { lazy, Suspense, useEffect } from 'react';
import { useBlocker } from 'react-router';
import { hasUnsavedChanges } from '@/lib/unsaved-changes';

// The question loads when it is needed: the shell's first download stays small.
const DiscardDialog = lazy(() => import('@/components/ui/confirm-discard').then((m) => ({ default: m.DiscardDialog })));

/**
 * One guard for the whole shell (a router allows one blocker): leaving a screen with a form that holds
 * unsaved typing asks first; reloading or closing the tab gets the browser's own question.
 */
export function UnsavedChangesGuard() {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && hasUnsavedChanges(),
  );

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedChanges()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  if (blocker.state !== 'blocked') return null;
  return (
    <Suspense fallback={null}>
      <DiscardDialog open onKeep={() => blocker.reset()} onDiscard={() => blocker.proceed()} />
    </Suspense>
  );
}
