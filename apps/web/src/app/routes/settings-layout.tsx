import { NavLink, Outlet } from 'react-router';
import { Palette, ShieldCheck, UserRound } from 'lucide-react';
import { cn } from '@/lib/cn';

const tabs = [
  { to: 'profile', label: 'Perfil', icon: UserRound },
  { to: 'security', label: 'Seguridad', icon: ShieldCheck },
  { to: 'appearance', label: 'Apariencia', icon: Palette },
];

export function SettingsLayout() {
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 md:grid-cols-[12rem_minmax(0,1fr)] md:gap-10">
      <div className="grid content-start gap-4 md:col-span-2">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Ajustes</h1>
      </div>
      <nav aria-label="Ajustes" className="-mx-4 overflow-x-auto px-4 md:mx-0 md:px-0">
        <ul className="flex gap-1 md:grid">
          {tabs.map(({ to, label, icon: Icon }) => (
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
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <section className="min-w-0">
        <Outlet />
      </section>
    </div>
  );
}

export { SettingsLayout as Component };
