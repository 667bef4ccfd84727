import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Command, defaultFilter } from 'cmdk';
import { Dialog, VisuallyHidden } from 'radix-ui';
import {
  CalendarDays,
  CalendarPlus,
  ChartColumnBig,
  House,
  LifeBuoy,
  Monitor,
  Moon,
  Palette,
  Search,
  ShieldCheck,
  Sun,
  UserRound,
  UserRoundPlus,
  Users,
  ArrowLeftRight,
  Plus,
  ReceiptText,
  FilePlus2,
  FileSignature,
  Send,
  CalendarClock,
  MessagesSquare,
  Clock,
  Gem,
  Gift,
  GraduationCap,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { formatPhone } from '@divan/core';
import { usePatientSearch } from '@/features/patients/api/patient-search';
import { useDialogFocus } from '@/components/ui/dialog-focus';
import { useSettingsStore, type Theme } from '@/stores/settings-store';
import { useSwitchWorkspace } from '@/features/workspaces/components/workspace-switcher';
import { workspaceSettingsItems } from '@/features/workspaces/nav';
import { useAbility } from '@/lib/ability';
import { useCurrentWorkspace, useWorkspacesStore } from '@/stores/workspaces-store';

type Action = { id: string; label: string; icon: LucideIcon; keywords?: string[]; run: () => void };

function Item({ action, onDone }: { action: Action; onDone: () => void }) {
  const Icon = action.icon;
  return (
    <Command.Item
      value={action.id}
      keywords={[action.label, ...(action.keywords ?? [])]}
      onSelect={() => {
        onDone();
        action.run();
      }}
      className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2.5 text-sm data-[selected=true]:bg-muted [&_svg]:size-4 [&_svg]:text-muted-foreground"
    >
      <Icon aria-hidden />
      {action.label}
    </Command.Item>
  );
}

/** "clinica" finds "Clínica": accents are folded on both sides. */
const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/**
 * cmdk's fuzzy score, without accents and without the long-shot matches (letters scattered across
 * keywords, e.g. "claro" in "Registro de actividad del espacio") that pushed real results down.
 */
function filter(value: string, search: string, keywords?: string[]): number {
  const score = defaultFilter(fold(value), fold(search), keywords?.map(fold));
  return score >= 0.05 ? score : 0;
}

function Group({ heading, children, forceMount }: { heading: string; children: ReactNode; forceMount?: boolean }) {
  return (
    <Command.Group
      heading={heading}
      forceMount={forceMount}
      className="px-1 pb-2 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pb-1.5 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
    >
      {children}
    </Command.Group>
  );
}

/** Ctrl/⌘+K: jump to any screen or switch theme without the mouse. Loaded on first use. */
export function CommandPalette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const setTheme = useSettingsStore((s) => s.setTheme);
  const go = (to: string) => () => void navigate(to);
  const theme = (t: Theme) => () => setTheme(t);

  // Hooks first: what the member may do decides which actions are offered.
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  const readsSessions = ability.can('read', 'sessions');
  const readsInvoices = ability.can('read', 'invoices') || ability.can('read', 'workspace_invoices');
  const navigation: Action[] = [
    { id: 'nav-home', label: 'Inicio', icon: House, keywords: ['dashboard', 'panel'], run: go('/') },
    ...(readsSessions
      ? [
          {
            id: 'nav-calendar',
            label: 'Calendario',
            icon: CalendarDays,
            keywords: ['agenda', 'sesiones', 'citas', 'semana'],
            run: go('/calendar'),
          },
        ]
      : []),
    {
      id: 'nav-analytics',
      label: 'Estadísticas',
      icon: ChartColumnBig,
      keywords: ['informes', 'cifras', 'ingresos', 'abandono', 'ocupación'],
      run: go('/analytics'),
    },
    { id: 'nav-patients', label: 'Pacientes', icon: Users, keywords: ['fichas', 'historia clínica', 'listado'], run: go('/patients') },
    // Chats follow the clinical history (Recepción reads none).
    ...(ability.can('read', 'patient_histories')
      ? [
          {
            id: 'nav-chats',
            label: 'Chats',
            icon: MessagesSquare,
            keywords: ['mensajes', 'conversaciones', 'sin leer', 'chat'],
            run: go('/chats'),
          },
        ]
      : []),
    ...(readsInvoices
      ? [
          {
            id: 'nav-billing',
            label: 'Facturación',
            icon: ReceiptText,
            keywords: ['facturas', 'cobros', 'rectificativa'],
            run: go('/billing'),
          },
        ]
      : []),
    ...(ability.can('read', 'consent_templates')
      ? [
          {
            id: 'nav-consents',
            label: 'Consentimientos',
            icon: FileSignature,
            keywords: ['plantillas', 'consentimiento informado', 'rgpd', 'firma'],
            run: go('/consents'),
          },
        ]
      : []),
    {
      id: 'nav-learning',
      label: 'Formación',
      icon: GraduationCap,
      keywords: ['biblioteca', 'vídeos', 'cursos', 'mi formación', 'aprender'],
      run: go('/learn/library'),
    },
    {
      id: 'nav-plans',
      label: 'Planes',
      icon: Gem,
      keywords: ['precios', 'contratar', 'premium', 'basic', 'team', 'suscripción', 'prueba gratuita'],
      run: go('/plans'),
    },
    { id: 'nav-profile', label: 'Perfil', icon: UserRound, keywords: ['ajustes', 'datos', 'foto'], run: go('/settings/profile') },
    { id: 'nav-security', label: 'Seguridad', icon: ShieldCheck, keywords: ['contraseña', 'ajustes'], run: go('/settings/security') },
    {
      id: 'nav-office-hours',
      label: 'Horario de atención del chat',
      icon: Clock,
      keywords: ['respuesta automática', 'ajustes', 'notificaciones', 'fuera de horario'],
      run: go('/settings/notifications'),
    },
    { id: 'nav-appearance', label: 'Apariencia', icon: Palette, keywords: ['tema', 'ajustes'], run: go('/settings/appearance') },
    {
      id: 'nav-billing-settings',
      label: 'Datos de facturación',
      icon: ReceiptText,
      keywords: ['ajustes', 'nif', 'retención', 'irpf', 'pie de factura'],
      run: go('/settings/billing'),
    },
    {
      id: 'nav-payments',
      label: 'Pagos',
      icon: Wallet,
      keywords: ['ajustes', 'tarjetas', 'facturas de diván', 'suscripción', 'datos de facturación del plan'],
      run: go('/settings/payments'),
    },
    {
      id: 'nav-invite',
      label: 'Invitar a un colega',
      icon: Gift,
      keywords: ['ajustes', 'invitar', 'código de invitación', 'enlace', 'recomendar', 'mes gratis', 'referido'],
      run: go('/settings/invite'),
    },
    {
      id: 'nav-gift',
      label: 'Regalar Diván',
      icon: Gift,
      keywords: ['regalo', 'tarjeta regalo', 'código de regalo', 'premium', 'colega', 'meses'],
      run: go('/gift'),
    },
    {
      id: 'nav-help',
      label: 'Ayuda',
      icon: LifeBuoy,
      keywords: ['soporte', 'contacto', 'comentario', 'sugerencia', 'ajustes'],
      run: go('/settings/help'),
    },
  ];
  // The list opens its "Nuevo paciente" dialog on ?create=1, the calendar its "Nueva sesión" on ?new=1, consents «Enviar» on ?enviar=1.
  const create: Action[] = [
    ...(ability.can('create', 'sessions')
      ? [
          {
            id: 'create-session',
            label: 'Nueva sesión',
            icon: CalendarPlus,
            keywords: ['crear sesión', 'cita', 'programar', 'agenda'],
            run: go('/calendar?new=1'),
          },
        ]
      : []),
    ...(ability.can('create', 'invoices') || ability.can('create', 'workspace_invoices')
      ? [
          {
            id: 'create-invoice',
            label: 'Nueva factura',
            icon: FilePlus2,
            keywords: ['crear factura', 'facturar', 'emitir'],
            run: go('/billing/editor'),
          },
        ]
      : []),
    ...(ability.can('create', 'consent_templates')
      ? [
          {
            id: 'create-consent-template',
            label: 'Nueva plantilla de consentimiento',
            icon: FileSignature,
            keywords: ['crear consentimiento', 'plantilla', 'firma'],
            run: go('/consents/editor'),
          },
        ]
      : []),
    ...(ability.can('create', 'sent_consents')
      ? [
          {
            id: 'send-consent',
            label: 'Enviar consentimiento',
            icon: Send,
            keywords: ['firmar', 'firma', 'consentimiento informado', 'tutor'],
            run: go('/consents?vista=enviados&enviar=1'),
          },
        ]
      : []),
    ...(ability.can('read', 'public_services')
      ? [
          {
            id: 'booking-services',
            label: 'Reserva online',
            icon: CalendarClock,
            keywords: ['servicios', 'horario', 'reservas', 'bloquear días', 'vacaciones'],
            run: go('/calendar/services'),
          },
        ]
      : []),
    {
      id: 'create-patient',
      label: 'Crear paciente',
      icon: UserRoundPlus,
      keywords: ['nuevo paciente', 'añadir', 'alta'],
      run: go('/patients?create=1'),
    },
  ];
  // Workspace settings the member may open, and the other workspaces to switch to.
  const workspaces = useWorkspacesStore((st) => st.workspaces);
  const switchWorkspace = useSwitchWorkspace();
  const workspaceNav: Action[] = workspaceSettingsItems(ability, workspace).map((i) => ({
    id: `nav-${i.to}`,
    label: `${i.label} del espacio`,
    icon: i.icon,
    keywords: ['espacio de trabajo', 'ajustes', ...i.keywords],
    run: go(i.to),
  }));
  const workspaceActions: Action[] = [
    ...workspaces
      .filter((w) => w.id !== workspace.id)
      .map((w) => ({
        id: `switch-${w.id}`,
        label: `Cambiar a ${w.name}`,
        icon: ArrowLeftRight,
        keywords: ['espacio', 'cambiar'],
        run: () => switchWorkspace(w.id),
      })),
    {
      id: 'create-workspace',
      label: 'Crear espacio de trabajo',
      icon: Plus,
      keywords: ['nuevo espacio', 'equipo', 'clínica'],
      run: go('/workspaces/create'),
    },
  ];
  const themes: Action[] = [
    { id: 'theme-light', label: 'Tema claro', icon: Sun, keywords: ['light'], run: theme('light') },
    { id: 'theme-dark', label: 'Tema oscuro', icon: Moon, keywords: ['dark', 'noche'], run: theme('dark') },
    { id: 'theme-system', label: 'Tema del sistema', icon: Monitor, keywords: ['system', 'automático'], run: theme('system') },
  ];
  const close = () => onOpenChange(false);
  const focus = useDialogFocus();
  const [search, setSearch] = useState('');
  const found = usePatientSearch(workspace.id, search, open && ability.can('read', 'patient_files'));
  const patients = found.active ? (found.data?.items ?? []) : [];
  const more = found.active && found.data ? found.data.total - patients.length : 0;
  // When patients arrive for what was typed, the first one is selected: Enter opens their file.
  const [selected, setSelected] = useState('');
  const firstPatient = found.active && !found.isPlaceholderData ? patients[0]?.id : undefined;
  useEffect(() => {
    if (firstPatient) setSelected(`patient-${firstPatient}`);
  }, [firstPatient, found.term]);

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) setSearch('');
        onOpenChange(next);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          {...focus}
          aria-describedby={undefined}
          className="fixed left-1/2 top-[12vh] z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 overflow-hidden rounded-xl border bg-card text-card-foreground shadow-2xl"
        >
          <VisuallyHidden.Root>
            <Dialog.Title>Paleta de comandos</Dialog.Title>
          </VisuallyHidden.Root>
          <Command label="Paleta de comandos" loop filter={filter} value={selected} onValueChange={setSelected}>
            <div className="flex items-center gap-2 border-b px-4">
              <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <Command.Input
                value={search}
                onValueChange={setSearch}
                placeholder="Busca pacientes, páginas o acciones…"
                className="h-12 w-full bg-transparent text-[0.9375rem] outline-none placeholder:text-muted-foreground"
              />
            </div>
            <Command.List className="max-h-80 overflow-y-auto p-1">
              {found.active || found.settling ? null : (
                <Command.Empty className="px-4 py-8 text-center text-sm text-muted-foreground">Sin resultados.</Command.Empty>
              )}
              {found.active ? (
                <Group heading="Pacientes" forceMount>
                  {/* The server already matched them (name, email, phone, DNI): shown whatever cmdk's own filter thinks (forceMount). */}
                  {patients.map((p) => {
                    const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
                    const detail = [p.email, formatPhone(p.phone), p.taxId].filter(Boolean).join(' · ');
                    return (
                      <Command.Item
                        key={p.id}
                        value={`patient-${p.id}`}
                        // The search the server answered, as a keyword: cmdk then ranks the group first.
                        keywords={[found.term, name]}
                        forceMount
                        onSelect={() => {
                          close();
                          void navigate(`/patients/${p.id}/overview`);
                        }}
                        className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-muted [&_svg]:size-4 [&_svg]:text-muted-foreground"
                      >
                        <UserRound aria-hidden />
                        <span className="grid min-w-0">
                          <span className="truncate font-medium">{name}</span>
                          {detail ? <span className="truncate text-xs text-muted-foreground">{detail}</span> : null}
                        </span>
                      </Command.Item>
                    );
                  })}
                  {found.isPending || found.settling ? (
                    <Command.Loading>
                      <div className="px-3 py-2 text-sm text-muted-foreground">Buscando pacientes…</div>
                    </Command.Loading>
                  ) : found.isError ? (
                    <div className="px-3 py-2 text-sm text-destructive">No se ha podido buscar: {found.error.message}</div>
                  ) : patients.length === 0 ? (
                    <div className="px-3 py-2 text-sm text-muted-foreground">Ningún paciente coincide con «{found.term}».</div>
                  ) : null}
                  {more > 0 ? (
                    <Command.Item
                      value="patients-all-results"
                      keywords={[found.term]}
                      forceMount
                      onSelect={() => {
                        close();
                        void navigate(`/patients?q=${encodeURIComponent(found.term)}`);
                      }}
                      className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2.5 text-sm text-primary data-[selected=true]:bg-muted [&_svg]:size-4"
                    >
                      <Users aria-hidden />
                      Ver los {more + patients.length} pacientes que coinciden
                    </Command.Item>
                  ) : null}
                </Group>
              ) : null}
              {found.active && readsSessions && patients.length > 0 ? (
                // Sessions are found through their patient: their sessions tab, or a new one with them.
                <Group heading="Sesiones" forceMount>
                  {patients.slice(0, 3).flatMap((p) => {
                    const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
                    const items = [
                      { id: `sessions-${p.id}`, label: `Sesiones de ${name}`, icon: CalendarDays, to: `/patients/${p.id}/sessions` },
                    ];
                    if (ability.can('create', 'sessions'))
                      items.push({
                        id: `new-session-${p.id}`,
                        label: `Nueva sesión con ${name}`,
                        icon: CalendarPlus,
                        to: `/calendar?new=1&patientId=${p.id}`,
                      });
                    return items.map((i) => (
                      <Command.Item
                        key={i.id}
                        value={i.id}
                        keywords={[found.term, name, 'sesiones']}
                        forceMount
                        onSelect={() => {
                          close();
                          void navigate(i.to);
                        }}
                        className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2.5 text-sm data-[selected=true]:bg-muted [&_svg]:size-4 [&_svg]:text-muted-foreground"
                      >
                        <i.icon aria-hidden />
                        {i.label}
                      </Command.Item>
                    ));
                  })}
                </Group>
              ) : null}
              <Group heading="Crear">
                {create.map((a) => (
                  <Item key={a.id} action={a} onDone={close} />
                ))}
              </Group>
              <Group heading="Ir a">
                {navigation.map((a) => (
                  <Item key={a.id} action={a} onDone={close} />
                ))}
              </Group>
              {workspaceNav.length > 0 ? (
                <Group heading={`Espacio: ${workspace.name}`}>
                  {workspaceNav.map((a) => (
                    <Item key={a.id} action={a} onDone={close} />
                  ))}
                </Group>
              ) : null}
              <Group heading="Espacios de trabajo">
                {workspaceActions.map((a) => (
                  <Item key={a.id} action={a} onDone={close} />
                ))}
              </Group>
              <Group heading="Tema">
                {themes.map((a) => (
                  <Item key={a.id} action={a} onDone={close} />
                ))}
              </Group>
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
