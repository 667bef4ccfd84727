import { NavLink } from 'react-router';
import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher';
import { usePermits } from '@/lib/permits';
import { cn } from '@/lib/cn';
import { useSettingsStore } from '@/stores/settings-store';
import { navItems } from './nav-items';

export function SidebarNav({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const ability = usePermits();
  return (
    <nav aria-label="Principal" className="grid gap-1">
      {navItems
        .filter((i) => !i.visible || i.visible(ability))
        .map(({ to, label, icon: Icon, end, badge: Badge }) => (
          <NavLink
            key={to}
            to={to}
            end={end}
            onClick={onNavigate}
            title={collapsed ? label : undefined}
            // A badge adds to the name (its count is read out), so the label stays in the content.
            aria-label={collapsed && !Badge ? label : undefined}
            className={({ isActive }) =>
              cn(
                'relative flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
                isActive && 'bg-card text-foreground shadow-xs ring-1 ring-border [&_svg]:text-primary',
                collapsed && 'justify-center px-0',
              )
            }
          >
            <Icon className="size-[1.125rem] shrink-0" aria-hidden />
            {collapsed ? Badge ? <span className="sr-only">{label}</span> : null : <span>{label}</span>}
            {Badge ? <Badge collapsed={collapsed} /> : null}
          </NavLink>
        ))}
    </nav>
  );
}

/** The desktop sidebar; its collapsed state is a persisted preference (spec §3). */
export function Sidebar() {
  const collapsed = useSettingsStore((s) => s.collapsedSidebar);
  const toggle = useSettingsStore((s) => s.toggleSidebar);
  const ToggleIcon = collapsed ? PanelLeftOpen : PanelLeftClose;

  return (
    <aside
      data-collapsed={collapsed}
      className={cn(
        'sticky top-0 hidden h-dvh shrink-0 flex-col border-r bg-sidebar transition-[width] duration-200 md:flex',
        collapsed ? 'w-[4.25rem]' : 'w-60',
      )}
    >
      <div className={cn('flex h-16 items-center', collapsed ? 'justify-center' : 'px-5')}>
        <Logo showName={!collapsed} />
      </div>
      <div className={cn('pt-1', collapsed ? 'px-2.5' : 'px-3')}>
        <WorkspaceSwitcher collapsed={collapsed} />
      </div>
      <div className={cn('flex-1 py-4', collapsed ? 'px-2.5' : 'px-3')}>
        <SidebarNav collapsed={collapsed} />
      </div>
      <div className={cn('border-t py-3', collapsed ? 'px-2.5' : 'px-3')}>
        <button
          type="button"
          onClick={toggle}
          aria-label={collapsed ? 'Expandir menú lateral' : 'Contraer menú lateral'}
          aria-expanded={!collapsed}
          className={cn(
            'flex h-9 w-full items-center gap-3 rounded-lg px-3 text-sm text-muted-foreground hover:bg-muted hover:text-foreground',
            collapsed && 'justify-center px-0',
          )}
        >
          <ToggleIcon className="size-[1.125rem]" aria-hidden />
          {collapsed ? null : <span>Contraer</span>}
        </button>
      </div>
    </aside>
  );
}
