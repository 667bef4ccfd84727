import { useLocation, useNavigate } from 'react-router';
import { Check, ChevronsUpDown, Plus, Settings2 } from 'lucide-react';
import { TEMPLATE_LABELS } from '@divan/core';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { DropdownMenu as Menu } from 'radix-ui';
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

/** Sidebar control: which workspace the member is in, the others, and "Crear espacio de trabajo". */
export function WorkspaceSwitcher({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const current = useCurrentWorkspace();
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const switchWorkspace = useSwitchWorkspace();
  const navigate = useNavigate();
  const loading = !isRealWorkspace(current.id);

  const switchTo = (id: string) => {
    switchWorkspace(id);
    onNavigate?.();
  };

  const go = (to: string) => {
    onNavigate?.();
    void navigate(to);
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" side={collapsed ? 'right' : 'bottom'} className="w-72 max-w-[calc(100vw-2rem)]">
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">Espacios de trabajo</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={current.id} onValueChange={switchTo}>
          {workspaces.map((w) => (
            <Menu.RadioItem
              key={w.id}
              value={w.id}
              className="relative flex cursor-default select-none items-center gap-2.5 rounded-md px-2.5 py-2 pr-8 text-sm outline-none data-[highlighted]:bg-muted"
            >
              <WorkspaceLogo name={w.name} url={w.logoUrl} className="size-7 text-xs" />
              <span className="grid min-w-0 leading-tight">
                <span className="truncate font-medium">{w.name}</span>
                <span className="truncate text-xs text-muted-foreground">
                  {TEMPLATE_LABELS[w.template]}
                </span>
              </span>
              <Menu.ItemIndicator className="absolute right-2.5 inline-flex">
                <Check className="size-4 text-primary" aria-hidden />
              </Menu.ItemIndicator>
            </Menu.RadioItem>
          ))}
        </DropdownMenuRadioGroup>
        {workspaces.length === 0 ? <p className="px-2.5 py-2 text-sm text-muted-foreground">Cargando espacios…</p> : null}
        <DropdownMenuSeparator />
        {isRealWorkspace(current.id) ? (
          <DropdownMenuItem onSelect={() => go('/settings/workspace/general')}>
            <Settings2 aria-hidden /> Ajustes del espacio
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={() => go('/workspaces/create')}>
          <Plus aria-hidden /> Crear espacio de trabajo
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
