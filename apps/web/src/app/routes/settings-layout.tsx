import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { Bell, Gift, LifeBuoy, Palette, Plug, ReceiptText, ShieldCheck, UserRound, Wallet, type LucideIcon } from 'lucide-react';
import { workspaceSettingsItems } from '@/features/workspaces/nav';
import { useAbility } from '@/lib/ability';
import { cn } from '@/lib/cn';
import { useCurrentWorkspace } from '@/stores/workspaces-store';

type Tab = { to: string; label: string; icon: LucideIcon };

const tabs: Tab[] = [
  { to: 'profile', label: 'Perfil', icon: UserRound },
  { to: 'security', label: 'Seguridad', icon: ShieldCheck },
  { to: 'appearance', label: 'Apariencia', icon: Palette },
  { to: 'notifications', label: 'Notificaciones', icon: Bell },
  { to: 'integrations', label: 'Integraciones', icon: Plug },
  { to: 'billing', label: 'Datos de facturación', icon: ReceiptText },
  // Diván's own payments for the workspace's plan (the page explains itself to who may not manage it).
  { to: 'payments', label: 'Pagos', icon: Wallet },
  // The referral programme: one's own link and code, whoever's workspace is open.
  { to: 'invite', label: 'Invitar', icon: Gift },
  { to: 'help', label: 'Ayuda', icon: LifeBuoy },
];

function TabList({ items, label }: { items: Tab[]; label: string }) {
  return (
    <ul className="flex gap-1 md:grid" aria-label={label}>
      {items.map(({ to, label: text, icon: Icon }) => (
        <li key={to}>
          <NavLink
            to={to}
            className={({ isActive }) =>
              cn(
                'flex h-9 items-center gap-2.5 whitespace-nowrap rounded-lg px-3 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground',
                isActive && 'bg-muted text-foreground [&_svg]:text-primary',
              )
            }
          >
            <Icon className="size-4" aria-hidden />
            {text}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function SettingsLayout() {
  const workspace = useCurrentWorkspace();
  // Only the workspace pages this member's roles open (the server refuses the others anyway).
  const workspaceTabs = workspaceSettingsItems(useAbility(), workspace);
  // On a phone the tabs scroll sideways: the open one (Ayuda is the last of its row) is brought into view.
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const n = nav.current;
    const active = n?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!n || !active || n.scrollWidth <= n.clientWidth) return;
    const [box, tab] = [n.getBoundingClientRect(), active.getBoundingClientRect()];
    if (tab.left < box.left || tab.right > box.right) n.scrollLeft += tab.left - box.left - 16;
  }, [pathname]);

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 md:grid-cols-[13rem_minmax(0,1fr)] md:gap-10">
      <div className="grid content-start gap-4 md:col-span-2">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Ajustes</h1>
      </div>
      <nav ref={nav} aria-label="Ajustes" className="-mx-4 grid content-start gap-3 overflow-x-auto px-4 md:mx-0 md:gap-5 md:px-0">
        <div className="grid gap-1.5">
          <p className="hidden px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground md:block">Tu cuenta</p>
          <TabList items={tabs} label="Tu cuenta" />
        </div>
        {workspaceTabs.length > 0 ? (
          <div className="grid gap-1.5">
            <p className="truncate px-3 text-xs font-medium uppercase tracking-wide text-muted-foreground" title={workspace.name}>
              <span className="md:hidden">Espacio: </span>
              <span className="hidden md:inline">Espacio · </span>
              <span className="normal-case tracking-normal">{workspace.name}</span>
            </p>
            <TabList items={workspaceTabs} label={`Espacio de trabajo ${workspace.name}`} />
          </div>
        ) : null}
      </nav>
      <section className="min-w-0">
        <Outlet />
      </section>
    </div>
  );
}

export { SettingsLayout as Component };
