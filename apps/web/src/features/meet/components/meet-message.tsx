import type { ReactNode } from 'react';
import { CircleAlert, PhoneOff } from 'lucide-react';
import { Logo } from '@/components/ui/logo';

/** A whole-page message of the room: the link cannot be used now, the room refused, or the call was left. */
export function MeetMessage({
  title,
  children,
  actions,
  tone = 'error',
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  tone?: 'error' | 'calm';
}) {
  const Icon = tone === 'error' ? CircleAlert : PhoneOff;
  return (
    <main className="grid min-h-dvh place-items-center bg-background px-5 py-10">
      <div className="grid w-full max-w-md gap-6">
        <Logo />
        <div
          className={
            tone === 'error'
              ? 'grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive'
              : 'grid size-14 place-items-center rounded-full bg-accent text-accent-foreground'
          }
        >
          <Icon className="size-7" aria-hidden />
        </div>
        <div className="grid gap-2">
          <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">{title}</h1>
          <div className="text-[0.9375rem] leading-relaxed text-muted-foreground">{children}</div>
        </div>
        {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
      </div>
    </main>
  );
}

const titles: Record<string, string> = {
  meet_not_open: 'La sala aún no está abierta',
  meet_closed: 'Esta videollamada ha terminado',
  meet_link_invalid: 'Este enlace no es válido',
  meet_session_canceled: 'Sesión cancelada',
  meet_not_available: 'Esta sesión no tiene videollamada',
  meet_room_full: 'La sala está completa',
  meet_ticket_invalid: 'Vuelve a entrar',
  therapy_session_not_found: 'Sesión no disponible',
  network_error: 'Sin conexión',
};
export const titleFor = (code: string) => titles[code] ?? 'No puedes entrar en la videollamada';
