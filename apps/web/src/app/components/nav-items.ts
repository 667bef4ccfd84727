import type { ComponentType } from 'react';
import {
  CalendarDays,
  ChartColumnBig,
  FileSignature,
  GraduationCap,
  House,
  MessagesSquare,
  ReceiptText,
  Settings,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { Permits } from '@divan/core';
import { ChatsNavBadge } from '@/features/chat/components/chats-nav-badge';

/** `visible`: whether the member's roles open the section (the server refuses it anyway). */
export type NavItem = {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
  visible?: (can: Pick<Permits, 'can'>) => boolean;
  /** A live count next to the label (e.g. unread chats). */
  badge?: ComponentType<{ collapsed: boolean }>;
};

/** Only screens that exist: a link to an unbuilt feature would be a dead end. */
export const navItems: NavItem[] = [
  { to: '/', label: 'Inicio', icon: House, end: true },
  { to: '/calendar', label: 'Calendario', icon: CalendarDays },
  { to: '/patients', label: 'Pacientes', icon: Users },
  // Chats are clinical: they follow the clinical history (Recepción reads none).
  { to: '/chats', label: 'Chats', icon: MessagesSquare, visible: (a) => a.can('read', 'patient_histories'), badge: ChatsNavBadge },
  {
    to: '/billing',
    label: 'Facturación',
    icon: ReceiptText,
    visible: (a) => a.can('read', 'invoices') || a.can('read', 'workspace_invoices'),
  },
  // Every member has figures (their own at least); what each tab counts follows their permissions.
  { to: '/analytics', label: 'Estadísticas', icon: ChartColumnBig },
  { to: '/consents', label: 'Consentimientos', icon: FileSignature, visible: (a) => a.can('read', 'consent_templates') },
  // The training library is each person's own: every member sees it, whatever their roles.
  { to: '/learn', label: 'Formación', icon: GraduationCap },
  { to: '/settings', label: 'Ajustes', icon: Settings },
];
