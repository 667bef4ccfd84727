import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';

export type PatientTab = { to: string; label: string; icon: LucideIcon };

/**
 * The file's sections. Nine fit a 1440 px screen; narrower, the strip scrolls sideways, its cut edge
 * fades (so a hidden «Ajustes» is seen to be there) and the current section is scrolled into view.
 */
export function PatientTabs({ tabs }: { tabs: PatientTab[] }) {
  const strip = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const [edges, setEdges] = useState({ start: false, end: false });

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = () => setEdges({ start: el.scrollLeft > 1, end: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 });
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, []);

  useEffect(() => {
    strip.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  const fade = edges.start && edges.end ? 'both' : edges.start ? 'start' : edges.end ? 'end' : undefined;
  return (
    <nav
      ref={strip}
      aria-label="Secciones del paciente"
      data-fade={fade}
      className={cn(
        '-mx-4 overflow-x-auto border-b px-4 [scrollbar-width:thin] sm:mx-0 sm:px-0',
        fade === 'end' && '[mask-image:linear-gradient(to_right,black_calc(100%-3rem),transparent)]',
        fade === 'start' && '[mask-image:linear-gradient(to_left,black_calc(100%-3rem),transparent)]',
        fade === 'both' && '[mask-image:linear-gradient(to_right,transparent,black_3rem,black_calc(100%-3rem),transparent)]',
      )}
    >
      <ul className="flex gap-0.5">
        {tabs.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              className={({ isActive }) =>
                cn(
                  '-mb-px flex h-10 items-center gap-1.5 whitespace-nowrap border-b-2 px-2 text-sm font-medium transition-colors',
                  isActive
                    ? 'border-primary text-foreground [&_svg]:text-primary'
                    : 'border-transparent text-muted-foreground hover:text-foreground',
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
  );
}
