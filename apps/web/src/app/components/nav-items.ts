import { CalendarDays, FileSignature, House, ReceiptText, Settings, Users, type LucideIcon } from 'lucide-react';
import type { AppAbility } from '@divan/core';

/** `visible`: whether the member's roles open the section (the server refuses it anyway). */
export type NavItem = { to: string; label: string; icon: LucideIcon; end?: boolean; visible?: (ability: AppAbility) => boolean };

/** Only screens that exist: a link to an unbuilt feature would be a dead end. */
export const navItems: NavItem[] = [
  { to: '/', label: 'Inicio', icon: House, end: true },
  { to: '/calendar', label: 'Calendario', icon: CalendarDays },
  { to: '/patients', label: 'Pacientes', icon: Users },
  { to: '/billing', label: 'Facturación', icon: ReceiptText, visible: (a) => a.can('read', 'invoices') || a.can('read', 'workspace_invoices') },
  { to: '/consents', label: 'Consentimientos', icon: FileSignature, visible: (a) => a.can('read', 'consent_templates') },
  { to: '/settings', label: 'Ajustes', icon: Settings },
];
