import type { ReactNode } from 'react';
import { FileSpreadsheet, NotebookPen, ShieldCheck } from 'lucide-react';
import { Logo } from '@/components/ui/logo';

const points = [
  // Only what Diván does today: agenda, invoices and consents will be listed when they exist.
  { icon: NotebookPen, text: 'Fichas de pacientes, historia clínica y documentos en un mismo lugar.' },
  { icon: FileSpreadsheet, text: 'Trae tu listado de pacientes desde un Excel y empieza en minutos.' },
  { icon: ShieldCheck, text: 'Datos clínicos protegidos y acceso con verificación en dos pasos.' },
];

/**
 * Signed-out screens: a quiet brand panel beside the form on wide screens, the form alone on phones.
 * Router-free: the guest entry (app/guest) draws it too.
 */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-[#23524e] p-12 text-[#f4efe6] lg:flex lg:flex-col lg:justify-between dark:bg-[#17302d]">
        <div
          aria-hidden
          className="pointer-events-none absolute -right-32 -top-32 size-[28rem] rounded-full bg-[radial-gradient(circle,rgba(244,239,230,0.14),transparent_65%)]"
        />
        <div
          aria-hidden
          className="pointer-events-none absolute -bottom-40 -left-24 size-[32rem] rounded-full bg-[radial-gradient(circle,rgba(180,214,205,0.16),transparent_65%)]"
        />
        <span className="relative inline-flex items-center gap-2.5">
          <svg viewBox="0 0 32 32" className="size-8" aria-hidden>
            <rect width="32" height="32" rx="8" fill="#f4efe6" />
            <path d="M8 19.5c0-2.2 1.8-4 4-4h8c2.2 0 4 1.8 4 4V22H8z" fill="#23524e" />
            <path d="M6.5 15.5a2 2 0 0 1 2 2V23h-2zM25.5 15.5a2 2 0 0 0-2 2V23h2z" fill="#23524e" opacity=".8" />
            <rect x="10" y="10" width="12" height="5" rx="2.5" fill="#23524e" opacity=".6" />
          </svg>
          <span className="font-display text-xl font-semibold tracking-tight">Diván</span>
        </span>
        <div className="relative grid max-w-md gap-8">
          <p className="font-display text-[2rem] leading-tight">Tu consulta, en calma. Tú, con tiempo para tus pacientes.</p>
          <ul className="grid gap-4">
            {points.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-[0.9375rem] leading-relaxed text-[#f4efe6]/90">
                <Icon className="mt-0.5 size-5 shrink-0 text-[#b4d6cd]" aria-hidden />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-[#f4efe6]/75">Hecho para psicólogos y terapeutas en España.</p>
      </aside>
      <main className="flex flex-col px-5 py-8 sm:px-10">
        <div className="lg:hidden">
          <Logo />
        </div>
        <div className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-[25rem]">{children}</div>
        </div>
      </main>
    </div>
  );
}
