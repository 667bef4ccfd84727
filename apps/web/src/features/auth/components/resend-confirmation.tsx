import { useState } from 'react';
import { toast } from '@/lib/toast';
import { MailCheck } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { isApiError } from '@/lib/http';
import { useResendConfirmation } from '../api/auth-mutations';
import { AuthLink } from '../utils/auth-nav';

/** "Check your email" after sign-up, with a resend button that explains each refusal. */
export function ResendConfirmation({ email, redirect = null }: { email: string; redirect?: string | null }) {
  const signIn = redirect ? `/sign-in?redirect=${encodeURIComponent(redirect)}` : '/sign-in';
  const resend = useResendConfirmation();
  const [error, setError] = useState<{ code: string; message: string } | null>(null);

  const onResend = async () => {
    setError(null);
    try {
      await resend.mutateAsync(email);
      toast.success('Te hemos reenviado el email de confirmación.');
    } catch (e) {
      setError(isApiError(e) ? { code: e.code, message: e.message } : { code: 'unexpected_error', message: 'Error al reenviar el email' });
    }
  };

  return (
    <div className="grid gap-6">
      <div className="grid size-14 place-items-center rounded-full bg-accent text-accent-foreground">
        <MailCheck className="size-7" aria-hidden />
      </div>
      <div className="grid gap-2">
        <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">Revisa tu email</h1>
        <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">
          Te hemos enviado un enlace a <strong className="font-semibold text-foreground">{email}</strong> para confirmar tu cuenta. Ábrelo
          desde este dispositivo o cualquier otro; caduca en 24 horas.
          {redirect?.startsWith('/workspaces/join/') ? ' Si lo abres en este navegador, volverás directamente a la invitación.' : null}
        </p>
      </div>
      {error ? (
        <Alert variant={error.code === 'user_already_verified' ? 'info' : 'error'}>
          {error.message} {error.code === 'user_already_verified' ? <AuthLink to={signIn}>Ir a iniciar sesión</AuthLink> : null}
        </Alert>
      ) : null}
      <div className="grid gap-3 text-sm text-muted-foreground">
        <p>¿No te ha llegado? Mira en la carpeta de spam o pide otro.</p>
        <div className="flex flex-wrap gap-3">
          <Button type="button" variant="outline" onClick={onResend} loading={resend.isPending}>
            Reenviar email
          </Button>
          <Button asChild variant="ghost">
            <AuthLink to={signIn}>Ir a iniciar sesión</AuthLink>
          </Button>
        </div>
      </div>
    </div>
  );
}
