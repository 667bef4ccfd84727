import { useNavigate } from 'react-router';
import { Check, Plus, Settings2 } from 'lucide-react';
import { TEMPLATE_LABELS } from '@divan/core';
import { DropdownMenu as Menu } from 'radix-ui';
import {
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { isRealWorkspace, useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';
import { useSwitchWorkspace } from './workspace-switcher';
import { WorkspaceLogo } from './workspace-logo';

export type SwitcherItemsProps = { collapsed: boolean; onNavigate?: () => void };

/** The switcher's menu: the workspaces, their settings and "Crear espacio de trabajo" (see WorkspaceSwitcher). */
export default function WorkspaceSwitcherItems({ collapsed, onNavigate }: SwitcherItemsProps) {
  const current = useCurrentWorkspace();
  const workspaces = useWorkspacesStore((s) => s.workspaces);
  const switchWorkspace = useSwitchWorkspace();
  const navigate = useNavigate();

  const switchTo = (id: string) => {
    switchWorkspace(id);
    onNavigate?.();
  };

  const go = (to: string) => {
    onNavigate?.();
    void navigate(to);
  };

  return (
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
              <span className="truncate text-xs text-muted-foreground">{TEMPLATE_LABELS[w.template]}</span>
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
  );
}
