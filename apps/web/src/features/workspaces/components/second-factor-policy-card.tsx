import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { LoadError } from '@/components/ui/states';
import { Switch } from '@/components/ui/switch';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useSecondFactorPolicy, useSetSecondFactorPolicy } from '../api/second-factor-policy-api';

/**
 * Ajustes › Espacio › General, the owner only: «Segundo factor obligatorio» (issue 32). On, members without an
 * authenticator app are sent to set one up at their next sign-in and reach nothing else; the card lists who lacks one.
 */
export function SecondFactorPolicyCard({ workspaceId }: { workspaceId: string }) {
  const { data, isPending, error, refetch } = useSecondFactorPolicy(workspaceId, true);
  const set = useSetSecondFactorPolicy(workspaceId);

  const change = async (required: boolean) => {
    try {
      await set.mutateAsync(required);
      toast.success(required ? 'Segundo factor obligatorio activado' : 'Segundo factor obligatorio desactivado');
    } catch (e) {
      toast.error(messageOf(e));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Segundo factor obligatorio</CardTitle>
        <CardDescription>
          Exige a todos los miembros una app de autenticación para entrar. Quien no la tenga deberá configurarla en su próximo inicio de
          sesión.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {error ? (
          <LoadError error={error} onRetry={() => void refetch()} what="la política de segundo factor" />
        ) : isPending ? (
          <Spinner />
        ) : (
          <>
            <label className="flex items-center gap-3">
              <Switch
                checked={data.required}
                disabled={set.isPending}
                onCheckedChange={(v) => void change(v)}
                aria-label="Segundo factor obligatorio"
              />
              <span className="text-sm font-medium">{data.required ? 'Activado' : 'Desactivado'}</span>
            </label>
            {data.membersWithout.length > 0 ? (
              <div className="grid gap-2">
                <p className="text-sm text-muted-foreground">Miembros sin app de autenticación:</p>
                <ul aria-label="Miembros sin segundo factor" className="divide-y rounded-lg border text-sm">
                  {data.membersWithout.map((m) => (
                    <li key={m.userId} className="flex flex-wrap justify-between gap-2 px-4 py-2">
                      <span className="font-medium">{m.name}</span>
                      <span className="text-muted-foreground">{m.email}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">Todos los miembros tienen una app de autenticación.</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
