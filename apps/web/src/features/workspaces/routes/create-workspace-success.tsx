import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowRight, CreditCard, PartyPopper, ShieldCheck, UserPlus, type LucideIcon } from 'lucide-react';
import { FREE_TRIAL_DAYS, TEMPLATE_LABELS } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useWorkspacesStore } from '@/stores/workspaces-store';
import { WorkspaceLogo } from '../components/workspace-logo';
import { usePageTitle } from '@/lib/use-page-title';

type Step = { to: string; icon: LucideIcon; title: string; text: string };

const steps: Step[] = [
  {
    to: '/settings/workspace/members?invite=1',
    icon: UserPlus,
    title: 'Invita a tu equipo',
    text: 'Envía una invitación por email y elige sus roles y comisión.',
  },
  { to: '/settings/workspace/roles', icon: ShieldCheck, title: 'Revisa los roles', text: 'Decide qué puede ver y hacer cada persona.' },
  {
    to: '/settings/workspace/billing',
    icon: CreditCard,
    title: 'Datos de facturación',
    text: 'Los datos fiscales con los que factura el espacio.',
  },
];

/** Switches to the new workspace and suggests what to do next. */
export function CreateWorkspaceSuccessRoute() {
  usePageTitle('Espacio creado');
  const [params] = useSearchParams();
  const id = params.get('workspace') ?? '';
  const workspace = useWorkspacesStore((s) => s.workspaces.find((w) => w.id === id));
  const select = useWorkspacesStore((s) => s.select);
  const listed = useWorkspacesStore((s) => s.workspaces.length > 0);

  useEffect(() => {
    if (workspace) select(workspace.id);
  }, [workspace, select]);

  if (!workspace) {
    if (!listed) return <PageSpinner />;
    return (
      <Alert variant="error">
        No encontramos ese espacio de trabajo. <Link to="/">Ir al inicio</Link>
      </Alert>
    );
  }

  const next = workspace.template === 'freelance' ? steps.slice(2) : steps;

  return (
    <div className="grid gap-8">
      <div className="grid justify-items-start gap-4">
        <div className="relative">
          <WorkspaceLogo name={workspace.name} url={workspace.logoUrl} className="size-16 rounded-2xl text-2xl" />
          <span className="absolute -bottom-2 -right-2 grid size-8 place-items-center rounded-full border-2 border-background bg-accent text-accent-foreground">
            <PartyPopper className="size-4" aria-hidden />
          </span>
        </div>
        <div className="grid gap-2">
          <h1 className="font-display text-3xl font-semibold tracking-tight">{workspace.name} está listo</h1>
          <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
            Lo hemos creado con la plantilla {TEMPLATE_LABELS[workspace.template]} y {FREE_TRIAL_DAYS} días de prueba gratuita. Ya estás
            trabajando en él; puedes cambiar de espacio cuando quieras desde el menú lateral.
          </p>
        </div>
      </div>
      <div className="grid gap-3">
        <h2 className="text-sm font-medium text-muted-foreground">Siguientes pasos</h2>
        {next.map(({ to, icon: Icon, title, text }) => (
          <Card key={to} className="transition-colors hover:border-primary/40">
            <Link to={to} className="flex items-center gap-3 rounded-xl p-4">
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
                <Icon className="size-5" aria-hidden />
              </span>
              <span className="grid min-w-0 flex-1 gap-0.5">
                <span className="font-medium">{title}</span>
                <span className="text-[0.8125rem] text-muted-foreground">{text}</span>
              </span>
              <ArrowRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            </Link>
          </Card>
        ))}
      </div>
      <div>
        <Button asChild size="lg">
          <Link to="/">Ir al inicio</Link>
        </Button>
      </div>
    </div>
  );
}

export { CreateWorkspaceSuccessRoute as Component };
