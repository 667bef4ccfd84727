import { CalendarDays, House, Settings, Users, type LucideIcon } from 'lucide-react';

export type NavItem = { to: string; label: string; icon: LucideIcon; end?: boolean };

/** Only screens that exist: a link to an unbuilt feature would be a dead end. */
export const navItems: NavItem[] = [
  { to: '/', label: 'Inicio', icon: House, end: true },
  { to: '/calendar', label: 'Calendario', icon: CalendarDays },
  { to: '/patients', label: 'Pacientes', icon: Users },
  { to: '/settings', label: 'Ajustes', icon: Settings },
];
