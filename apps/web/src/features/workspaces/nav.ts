import { CreditCard, Gem, History, Settings2, ShieldCheck, Users, type LucideIcon } from 'lucide-react';
import type { Permits, Workspace } from '@divan/core';
import { isRealWorkspace } from '@/stores/workspaces-store';

export type WorkspaceSettingsItem = { to: string; label: string; icon: LucideIcon; keywords: string[] };

const items: (WorkspaceSettingsItem & { visible: (can: Pick<Permits, 'can'>, ws: Workspace) => boolean })[] = [
  {
    to: '/settings/workspace/general',
    label: 'General',
    icon: Settings2,
    keywords: ['espacio', 'nombre', 'logo'],
    visible: (a) => a.can('read', 'workspace_profile'),
  },
  {
    to: '/settings/workspace/members',
    label: 'Miembros',
    icon: Users,
    keywords: ['equipo', 'invitar', 'comisión'],
    visible: (a) => a.can('read', 'members'),
  },
  {
    to: '/settings/workspace/roles',
    label: 'Roles y permisos',
    icon: ShieldCheck,
    keywords: ['permisos', 'acceso'],
    visible: (a) => a.can('read', 'roles'),
  },
  {
    to: '/settings/workspace/billing',
    label: 'Facturación',
    icon: CreditCard,
    keywords: ['datos fiscales', 'nif', 'dirección'],
    visible: (a) => a.can('read', 'workspace_billing'),
  },
  { to: '/settings/workspace/plan', label: 'Plan', icon: Gem, keywords: ['suscripción', 'prueba', 'plazas'], visible: () => true },
  // The server keeps the activity log for those who manage roles (administrators).
  {
    to: '/settings/workspace/activity',
    label: 'Registro de actividad',
    icon: History,
    keywords: ['auditoría', 'historial'],
    visible: (a) => a.can('manage', 'roles'),
  },
];

/** The workspace settings this member may open, in menu order; the placeholder workspace offers none. */
export function workspaceSettingsItems(ability: Pick<Permits, 'can'>, workspace: Workspace): WorkspaceSettingsItem[] {
  if (!isRealWorkspace(workspace.id)) return [];
  return items.filter((i) => i.visible(ability, workspace)).map(({ visible: _v, ...item }) => item);
}
