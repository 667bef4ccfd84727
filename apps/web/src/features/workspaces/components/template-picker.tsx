import { Building2, User, Users, type LucideIcon } from 'lucide-react';
import { ADMIN_ROLE_NAME, DEFAULT_ROLES, TEMPLATE_LABELS, WORKSPACE_TEMPLATES, type WorkspaceTemplate } from '@divan/core';
import { cn } from '@/lib/cn';

const details: Record<WorkspaceTemplate, { icon: LucideIcon; text: string }> = {
  freelance: { icon: User, text: 'Tu consulta privada: todos los pacientes son tuyos y nadie más los ve.' },
  team: { icon: Users, text: 'Varios terapeutas que comparten pacientes: cada miembro ve todos los del equipo.' },
  clinic: { icon: Building2, text: 'Un centro con recepción: cada terapeuta ve solo los pacientes que tiene asignados.' },
};

/** The roles a template starts with, as the card lists them. */
export const templateRoles = (t: WorkspaceTemplate) => [ADMIN_ROLE_NAME, ...DEFAULT_ROLES[t].map((r) => r.name)].join(', ');

type Props = { value: WorkspaceTemplate; onChange: (t: WorkspaceTemplate) => void };

/** Three cards that behave as one radio group (arrow keys move between them). */
export function TemplatePicker({ value, onChange }: Props) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium">Tipo de espacio</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {WORKSPACE_TEMPLATES.map((t) => {
          const { icon: Icon, text } = details[t];
          const checked = value === t;
          return (
            <label
              key={t}
              className={cn(
                'relative grid cursor-pointer content-start gap-2 rounded-xl border bg-card p-4 shadow-xs transition-colors hover:border-primary/50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                checked && 'border-primary ring-1 ring-primary',
              )}
            >
              <input
                type="radio"
                name="template"
                value={t}
                checked={checked}
                onChange={() => onChange(t)}
                // Invisible but covering the card: a click anywhere on it is a click on the radio.
                className="absolute inset-0 size-full cursor-pointer appearance-none rounded-xl opacity-0"
                aria-describedby={`template-${t}-text`}
              />
              <span
                className={cn(
                  'grid size-9 place-items-center rounded-lg',
                  checked ? 'bg-primary text-primary-foreground' : 'bg-accent text-accent-foreground',
                )}
              >
                <Icon className="size-[1.125rem]" aria-hidden />
              </span>
              <span className="font-medium">{TEMPLATE_LABELS[t]}</span>
              <span id={`template-${t}-text`} className="grid gap-2 text-[0.8125rem] leading-snug text-muted-foreground">
                <span>{text}</span>
                <span>
                  <span className="font-medium text-foreground/80">Roles: </span>
                  {templateRoles(t)}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
