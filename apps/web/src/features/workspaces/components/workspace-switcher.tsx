import { useLocation, useNavigate } from 'react-router';
import { ChevronsUpDown } from 'lucide-react';
import { TEMPLATE_LABELS } from '@divan/core';
import { LazyMenu } from '@/components/ui/lazy-menu';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { isRealWorkspace, useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { WorkspaceLogo } from './workspace-logo';

/**
 * After a switch, a screen about one record of the previous workspace (a patient, an invoice) would
 * be wrong: go up to its section. Settings apply to whichever workspace is current, so they stay.
 */
export function pathAfterSwitch(pathname: string): string {
  if (pathname.startsWith('/settings')) return pathname;
  const section = pathname.split('/').filter(Boolean)[0];
  return section ? `/${section}` : '/';
}

/** Switch the current workspace, say so, and leave a screen that belonged to the previous one. */
export function useSwitchWorkspace(): (id: string) => void {
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const currentId = useWorkspacesStore((s) => s.currentId);
  const select = useWorkspacesStore((s) => s.select);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (id: string) => {
    const next = workspaces.find((w) => w.id === id);
    if (!next || id === currentId) return;
    select(id);
    toast.success(`Ahora estás en ${next.name}`);
    const to = pathAfterSwitch(pathname);
    if (to !== pathname) void navigate(to);
  };
}

const loadItems = () => import('./workspace-switcher-items');

/**
 * Sidebar control: which workspace the member is in, the others, and "Crear espacio de trabajo".
 * The menu's code loads on first use (see LazyMenu).
 */
export function WorkspaceSwitcher({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const current = useCurrentWorkspace();
  const loading = !isRealWorkspace(current.id);

  return (
    <LazyMenu
      load={loadItems}
      props={{ collapsed, onNavigate }}
      trigger={
        <button
          type="button"
          className={cn(
            'flex w-full items-center gap-2.5 rounded-lg text-left hover:bg-muted data-[state=open]:bg-muted',
            collapsed ? 'justify-center p-1' : 'border bg-card px-2.5 py-2 shadow-xs',
          )}
          aria-label={collapsed ? `Espacio de trabajo: ${current.name}. Cambiar de espacio` : undefined}
          title={collapsed ? current.name : undefined}
        >
          <WorkspaceLogo name={current.name} url={current.logoUrl} className="size-8 text-sm" />
          {collapsed ? null : (
            <>
              <span className="grid min-w-0 flex-1 leading-tight">
                <span className="truncate text-sm font-medium" title={current.name}>
                  {current.name}
                </span>
                <span className="truncate text-xs text-muted-foreground">
                  {loading ? 'Espacio de trabajo' : TEMPLATE_LABELS[current.template]}
                </span>
              </span>
              <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="sr-only">Cambiar de espacio de trabajo</span>
            </>
          )}
        </button>
      }
    />
  );
}
