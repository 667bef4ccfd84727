import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '@/lib/toast';
import { CircleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/http';
import { useConfirmEmail } from '../api/auth-mutations';
import { takeAfterVerify } from '../utils/after-verify';
import { usePageTitle } from '@/lib/use-page-title';

const copy: Record<string, { title: string; body: string }> = {
  challenge_expired: {
    title: 'El enlace ha caducado',
    body: 'Los enlaces de confirmación duran 24 horas. Inicia sesión con tu email y contraseña y te enviaremos uno nuevo.',
  },
  challenge_not_found: {
    title: 'Este enlace ya no es válido',
    body: 'Puede que ya lo hayas usado para confirmar tu cuenta. Prueba a iniciar sesión; si aún no está confirmada, te ofreceremos reenviar el email.',
  },
};

export function VerifyEmailRoute() {
  usePageTitle('Confirmar email');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const confirm = useConfirmEmail();
  // A token works once: StrictMode's double effect (and any re-render) must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    confirm.mutate(token, {
      onSuccess: (tokens) => {
        toast.success('¡Cuenta confirmada! Te damos la bienvenida a Diván.');
        // Back to where sign-up started (an invitation), when it started in this browser.
        void navigate(takeAfterVerify(tokens.profile.email), { replace: true });
      },
    });
  }, [confirm, navigate, token]);

  if (confirm.isError) {
    const code = isApiError(confirm.error) ? confirm.error.code : 'unexpected_error';
    const text = copy[code] ?? { title: 'No hemos podido confirmar tu cuenta', body: confirm.error?.message ?? '' };
    return (
      <div className="grid gap-6">
        <div className="grid size-14 place-items-center rounded-full bg-destructive/10 text-destructive">
          <CircleAlert className="size-7" aria-hidden />
        </div>
        <div className="grid gap-2">
          <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">{text.title}</h1>
          <p className="text-[0.9375rem] leading-relaxed text-muted-foreground">{text.body}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <Link to="/sign-in">Iniciar sesión</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/sign-up">Crear una cuenta</Link>
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="grid justify-items-start gap-4">
      <h1 className="font-display text-[1.75rem] font-semibold leading-tight tracking-tight">Confirmando tu cuenta…</h1>
      <Spinner label="Confirmando tu cuenta" />
    </div>
  );
}

export { VerifyEmailRoute as Component };
