import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { BookOpen, GraduationCap, Upload, type LucideIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useLearningAccess } from '../api/access';

type Item = { to: string; label: string; icon: LucideIcon };
const items: Item[] = [
  { to: '/learn/library', label: 'Biblioteca', icon: BookOpen },
  { to: '/learn/home', label: 'Mi formación', icon: GraduationCap },
];
// Diván's staff only: the server refuses the tool to everyone else anyway.
const upload: Item = { to: '/learn/_upload', label: 'Subir vídeos', icon: Upload };

/** The library's frame: its sections (and «Subir vídeos» for Diván's staff) above each page. */
export function LearningLayout({ children }: { children: ReactNode }) {
  const access = useLearningAccess();
  const links = access.data?.staff ? [...items, upload] : items;
  return (
    <div className="mx-auto grid w-full max-w-7xl grid-cols-[minmax(0,1fr)] gap-6">
      <nav aria-label="Formación" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex gap-1">
          {links.map(({ to, label, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                className={({ isActive }) =>
                  cn(
                    'flex h-9 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium text-muted-foreground hover:bg-muted hover:text-foreground',
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
      {children}
    </div>
  );
}
