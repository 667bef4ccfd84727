import { useMemo } from 'react';
import { Outlet } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { useWorkspaceSource, WorkspaceScopeProvider } from './api/workspace';
import { LoadError } from '@/components/ui/states';

/**
 * Every patients screen works inside the current workspace. Keyed by it: switching workspace
 * starts the screens afresh (no dialog or form carries over from the other one).
 */
export function PatientsRoot() {
  const { workspace, ability, userId, error, refetch } = useWorkspaceSource();
  const scope = useMemo(() => (workspace ? { workspace, ability, userId } : null), [workspace, ability, userId]);
  if (scope) {
    return (
      <WorkspaceScopeProvider key={scope.workspace.id} value={scope}>
        <Outlet />
      </WorkspaceScopeProvider>
    );
  }
  if (!error) return <PageSpinner />;
  return (
    <div className="mx-auto max-w-3xl">
      <LoadError error={error} onRetry={() => void refetch()} what="tu espacio de trabajo" />
    </div>
  );
}

export { PatientsRoot as Component };
