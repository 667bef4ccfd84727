import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** The ten recovery codes, shown this once (at enrolment or after regenerating): copy them somewhere safe. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success('Códigos copiados');
    } catch {
      toast.error('No se han podido copiar. Cópialos a mano.');
    }
  };
  return (
    <div className="grid gap-4">
      <Alert>
        Guarda estos códigos en un lugar seguro: cada uno sirve una sola vez para entrar si pierdes el móvil. No volverás a verlos.
      </Alert>
      <ul aria-label="Códigos de recuperación" className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-4 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          Copiar los códigos
        </Button>
      </div>
    </div>
  );
}
