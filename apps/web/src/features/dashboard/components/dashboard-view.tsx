import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { KeyRound, Palette } from 'lucide-react';
import type { Profile } from '@divan/core';
import { Card } from '@/components/ui/card';
import { formatLongDate } from '@/lib/format';
import { greetingFor } from '../utils/greeting';
import { GettingStartedCard } from './getting-started-card';

/** Re-renders every minute so the greeting and date roll over for a tab left open overnight. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const shortcuts = [
  { to: '/settings/security', icon: KeyRound, title: 'Seguridad', text: 'Cambia tu contraseña cuando lo necesites.' },
  { to: '/settings/appearance', icon: Palette, title: 'Apariencia', text: 'Tema claro, oscuro o el de tu sistema.' },
];

/**
 * `revenue` (the month's money and its chart), `sessions` (today's), `toClose` (past ones still pending),
 * `chats` (unread messages), `flags` (unreviewed risk answers) and `tasks` (the member's to-do list) are composed by app/ (features do not
 * import each other). `learning` is the training library's «Continuar viendo» and «Vídeos populares» (spec §2).
 */
export function DashboardView({
  profile,
  revenue,
  flags,
  learning,
  tasks,
  sessions,
  toClose,
  chats,
}: {
  profile: Profile;
  revenue?: ReactNode;
  /** Unreviewed risk answers of outcome measures (first: they are what must not wait). */
  flags?: ReactNode;
  learning?: ReactNode;
  tasks?: ReactNode;
  sessions?: ReactNode;
  toClose?: ReactNode;
  chats?: ReactNode;
}) {
  const now = useNow();
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8">
      <header className="grid gap-1">
        <p className="text-sm font-medium text-muted-foreground">{formatLongDate(now)}</p>
        <h1 className="font-display text-3xl font-semibold tracking-tight sm:text-[2.125rem]">
          {greetingFor(now)}, {profile.firstName}
        </h1>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="grid content-start gap-6">
          {flags}
          {revenue}
          {sessions}
          {toClose}
          {chats}
          {tasks}
          {learning}
          <GettingStartedCard profile={profile} />
        </div>
        <div className="grid content-start gap-4">
          {shortcuts.map(({ to, icon: Icon, title, text }) => (
            <Card key={to} className="transition-colors hover:border-primary/40">
              <Link to={to} className="flex gap-3 rounded-xl p-4">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
                  <Icon className="size-[1.125rem]" aria-hidden />
                </span>
                <span className="grid gap-0.5">
                  <span className="text-sm font-medium">{title}</span>
                  <span className="text-[0.8125rem] text-muted-foreground">{text}</span>
                </span>
              </Link>
            </Card>
          ))}
        </div>
      </div>
    </div>
  );
}
