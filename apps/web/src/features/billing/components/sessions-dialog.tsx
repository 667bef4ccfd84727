import { useState } from 'react';
import { CalendarX2 } from 'lucide-react';
import { MODALITY, type Session } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { formatCurrency, isoDateToDmy } from '@/lib/format';
import { usePatientCompletedSessions } from '../api/support-api';
import { LoadError } from '@/components/ui/states';

type Props = {
  wid: string;
  patient: { id: string; name: string };
  /** Sessions already on this invoice's lines (typed or saved): not offered again. */
  onInvoice: string[];
  /** Sessions the saved draft holds: the API marks them invoiced, yet they may come back to the lines. */
  ownSaved: string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdd: (sessions: Session[]) => void;
};

/** «Añadir sesiones»: the patient's completed sessions not invoiced yet, oldest first, all ticked. */
export function SessionsDialog({ wid, patient, onInvoice, ownSaved, open, onOpenChange, onAdd }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent className="max-w-lg">
          <DialogHeader title="Añadir sesiones" description={`Sesiones realizadas de ${patient.name} que aún no están facturadas.`} />
          <Picker
            wid={wid}
            patientId={patient.id}
            onInvoice={onInvoice}
            ownSaved={ownSaved}
            onCancel={() => onOpenChange(false)}
            onAdd={onAdd}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function Picker({
  wid,
  patientId,
  onInvoice,
  ownSaved,
  onCancel,
  onAdd,
}: {
  wid: string;
  patientId: string;
  onInvoice: string[];
  ownSaved: string[];
  onCancel: () => void;
  onAdd: (s: Session[]) => void;
}) {
  const q = usePatientCompletedSessions(wid, patientId);
  const offered = (q.data ?? []).filter((s) => (!s.invoiced || ownSaved.includes(s.id)) && !onInvoice.includes(s.id)).reverse();
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const chosen = offered.filter((s) => !unticked.has(s.id));

  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} what="las sesiones" />;
  if (!q.data)
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-muted-foreground" aria-busy="true">
        <Spinner /> Cargando sesiones…
      </div>
    );
  return (
    <>
      {offered.length === 0 ? (
        <div className="grid justify-items-center gap-2 py-6 text-center text-sm text-muted-foreground">
          <CalendarX2 className="size-6" aria-hidden />
          No hay sesiones realizadas pendientes de facturar.
        </div>
      ) : (
        <ul className="grid max-h-80 gap-1 overflow-y-auto" aria-label="Sesiones sin facturar">
          {offered.map((s) => (
            <li key={s.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 text-sm hover:bg-muted">
                <input
                  type="checkbox"
                  className="size-4 accent-[var(--color-primary)]"
                  checked={!unticked.has(s.id)}
                  onChange={(e) =>
                    setUnticked((prev) => {
                      const next = new Set(prev);
                      if (e.target.checked) next.delete(s.id);
                      else next.add(s.id);
                      return next;
                    })
                  }
                />
                <span className="flex-1 tabular-nums">
                  {isoDateToDmy(s.day)} · {s.from}–{s.to}
                  <span className="text-muted-foreground"> · {MODALITY.labels[s.modality]}</span>
                </span>
                <span className="font-medium tabular-nums">{formatCurrency(s.price)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="button" disabled={chosen.length === 0} onClick={() => onAdd(chosen)}>
          {chosen.length === 1 ? 'Añadir 1 sesión' : `Añadir ${chosen.length} sesiones`}
        </Button>
      </DialogFooter>
    </>
  );
}
