import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Command } from 'cmdk';
import { Dialog, VisuallyHidden } from 'radix-ui';
import { House, Monitor, Moon, Palette, Search, ShieldCheck, Sun, UserRound, type LucideIcon } from 'lucide-react';
import { useSettingsStore, type Theme } from '@/stores/settings-store';

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

function Group({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Command.Group
      heading={heading}
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

  const navigation: Action[] = [
    { id: 'nav-home', label: 'Inicio', icon: House, keywords: ['dashboard', 'panel'], run: go('/') },
    { id: 'nav-profile', label: 'Perfil', icon: UserRound, keywords: ['ajustes', 'datos', 'foto'], run: go('/settings/profile') },
    { id: 'nav-security', label: 'Seguridad', icon: ShieldCheck, keywords: ['contraseña', 'ajustes'], run: go('/settings/security') },
    { id: 'nav-appearance', label: 'Apariencia', icon: Palette, keywords: ['tema', 'ajustes'], run: go('/settings/appearance') },
  ];
  const themes: Action[] = [
    { id: 'theme-light', label: 'Tema claro', icon: Sun, keywords: ['light'], run: theme('light') },
    { id: 'theme-dark', label: 'Tema oscuro', icon: Moon, keywords: ['dark', 'noche'], run: theme('dark') },
    { id: 'theme-system', label: 'Tema del sistema', icon: Monitor, keywords: ['system', 'automático'], run: theme('system') },
  ];
  const close = () => onOpenChange(false);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-[12vh] z-50 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 overflow-hidden rounded-xl border bg-card text-card-foreground shadow-2xl"
        >
          <VisuallyHidden.Root>
            <Dialog.Title>Paleta de comandos</Dialog.Title>
          </VisuallyHidden.Root>
          <Command label="Paleta de comandos" loop>
            <div className="flex items-center gap-2 border-b px-4">
              <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <Command.Input
                placeholder="Busca una página o acción…"
                className="h-12 w-full bg-transparent text-[0.9375rem] outline-none placeholder:text-muted-foreground"
              />
            </div>
            <Command.List className="max-h-80 overflow-y-auto p-1">
              <Command.Empty className="px-4 py-8 text-center text-sm text-muted-foreground">Sin resultados.</Command.Empty>
              <Group heading="Ir a">
                {navigation.map((a) => (
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
