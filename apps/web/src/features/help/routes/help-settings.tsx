import { Mail } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/error-message';
import { usePageTitle } from '@/lib/use-page-title';
import { useSupport } from '../api/help-api';
import { FeedbackForm } from '../components/feedback-form';

function Contact() {
  const support = useSupport();
  if (support.isPending) return <Spinner label="Cargando la dirección de contacto" />;
  if (support.isError)
    return <p className="text-sm text-destructive">No se pudo cargar la dirección de contacto: {messageOf(support.error)}</p>;
  const email = support.data.email;
  if (!email)
    return (
      <p className="text-sm text-muted-foreground">
        Esta instalación de Diván no tiene una dirección de contacto configurada. Puedes escribirnos con el formulario de abajo.
      </p>
    );
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <Mail className="size-4 text-primary" aria-hidden />
      <span>Escríbenos a</span>
      <a className="break-all font-medium text-primary underline underline-offset-2" href={`mailto:${email}`}>
        {email}
      </a>
    </p>
  );
}

/** Ajustes → Ayuda: the contact address of the installation and a comment form. */
export function HelpSettingsRoute() {
  usePageTitle('Ayuda');
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>¿Necesitas ayuda?</CardTitle>
          <CardDescription>Si tienes una duda sobre Diván o algo no funciona, escríbenos y te ayudamos.</CardDescription>
        </CardHeader>
        <CardContent>
          <Contact />
        </CardContent>
      </Card>
      <FeedbackForm />
    </div>
  );
}

export { HelpSettingsRoute as Component };
