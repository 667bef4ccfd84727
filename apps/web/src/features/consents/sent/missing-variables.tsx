import { useState } from 'react';
import { Link } from 'react-router';
import { TriangleAlert } from 'lucide-react';
import type { ConsentSendCheck } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { messageOf } from '@/lib/error-message';
import { useSaveRegistrationNumber } from '../api/consent-envelopes-api';

type Gap = ConsentSendCheck['missing'][number];

/** Where each kind of gap is filled, for those the dialog cannot fill itself. */
const PLACE: Record<NonNullable<Gap['source']>, { label: string; to: (patientId: string) => string }> = {
  profile: { label: 'Complétalo en tu perfil', to: () => '/settings/profile' },
  patient: { label: 'Complétalo en su ficha', to: (id) => `/patients/${id}` },
  workspace: { label: 'Complétalo en los ajustes del espacio', to: () => '/settings/workspace' },
};

/**
 * Before sending: the document's variables that would go out blank («colegiado/a n.º .»), each with a
 * way to fill it — the registration number right here, saved to the profile — or, knowingly, send it
 * so. The server refuses a blank sending without that confirmation (`confirmMissing`).
 */
export function MissingVariables({
  wid,
  missing,
  patientId,
  confirmed,
  onConfirm,
}: {
  wid: string;
  missing: Gap[];
  patientId: string;
  confirmed: boolean;
  onConfirm: (on: boolean) => void;
}) {
  return (
    <section
      aria-labelledby="missing-title"
      data-testid="missing-variables"
      className="grid gap-3 rounded-lg border border-warning-fg/25 bg-warning-bg p-3 text-sm text-warning-fg"
    >
      <h3 id="missing-title" className="flex items-center gap-2 font-semibold">
        <TriangleAlert className="size-4 shrink-0" aria-hidden />
        {missing.length === 1 ? 'Al documento le falta un dato' : `Al documento le faltan ${missing.length} datos`}
      </h3>
      <ul className="grid gap-3">
        {missing.map((gap) => (
          <li key={gap.variable} className="grid gap-1.5">
            <span className="font-medium">{gap.message}: el documento lo dejaría en blanco.</span>
            {gap.variable === 'terapeuta.colegiado' ? (
              <RegistrationNumber wid={wid} />
            ) : gap.source ? (
              <Link to={PLACE[gap.source].to(patientId)} className="font-medium underline underline-offset-2">
                {PLACE[gap.source].label}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-0.5 size-4" checked={confirmed} onChange={(e) => onConfirm(e.target.checked)} />
        <span>Enviarlo igualmente, con {missing.length === 1 ? 'ese dato' : 'esos datos'} en blanco</span>
      </label>
    </section>
  );
}

/** The registration number, typed here and saved to the sender's profile. */
function RegistrationNumber({ wid }: { wid: string }) {
  const [value, setValue] = useState('');
  const save = useSaveRegistrationNumber(wid);
  const submit = () => {
    if (value.trim()) save.mutate(value.trim());
  };
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center gap-2">
        <Input
          aria-label="Tu número de colegiado/a"
          placeholder="Ej. M-12345"
          value={value}
          maxLength={50}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            // Inside the sending form: Enter saves the number, it does not send.
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
          className="h-9 min-w-0 flex-1 bg-card text-foreground"
        />
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="h-9 shrink-0 text-foreground"
          loading={save.isPending}
          disabled={!value.trim()}
          onClick={submit}
        >
          Guardar en tu perfil
        </Button>
      </div>
      {save.isError ? (
        <p role="alert" className="font-medium text-destructive">
          {messageOf(save.error)}
        </p>
      ) : null}
    </div>
  );
}
