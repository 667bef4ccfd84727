import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Download, FileJson, FileText, Trash2 } from 'lucide-react';
import { RETENTION_YEARS } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/lib/toast';
import { patientPath } from '../api/keys';
import { forgetPatient } from '../api/patient-events';
import { useDeletePatient, type DeleteResult } from '../api/patients-api';
import { downloadFile } from '@/lib/file-transfer';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { messageOf } from '../utils/errors';
import { patientName } from '../utils/format';
import { usePatientDetail } from './patient-context';

function ExportCard() {
  const { patient, wid } = usePatientDetail();
  const [busy, setBusy] = useState<'json' | 'pdf' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base =
    patientName(patient)
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .trim() || 'paciente';

  const download = async (kind: 'json' | 'pdf') => {
    setBusy(kind);
    setError(null);
    try {
      await downloadFile(`${patientPath(wid, patient.id)}/export.${kind}`, `${base}.${kind}`);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Exportar la ficha completa</CardTitle>
        <CardDescription>
          Datos, tratamiento, historia clínica y lista de documentos, según lo que puedas ver. Las entradas privadas no se exportan. Útil si
          el paciente ejerce su derecho de acceso o portabilidad.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {error ? <Alert variant="error">{error}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" loading={busy === 'pdf'} onClick={() => void download('pdf')}>
            {busy === 'pdf' ? null : <FileText aria-hidden />} Descargar PDF
          </Button>
          <Button variant="outline" loading={busy === 'json'} onClick={() => void download('json')}>
            {busy === 'json' ? null : <FileJson aria-hidden />} Descargar JSON
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function DeleteCard() {
  const { patient, wid } = usePatientDetail();
  const remove = useDeletePatient(wid, patient.id);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<DeleteResult | null>(null);
  const name = patientName(patient);

  const backToList = () => {
    // Forgotten once the screen that shows it is gone (removing a query still on screen fetches it again: a 404).
    void Promise.resolve(navigate('/patients', { replace: true })).then(() => forgetPatient(qc, wid, patient.id));
    if (result) toast.success(result.result === 'deleted' ? `Ficha de ${name} eliminada` : `Ficha de ${name} bloqueada`);
  };

  return (
    <Card className="border-destructive/30">
      <CardHeader>
        <CardTitle>Eliminar paciente</CardTitle>
        <CardDescription>
          La ley obliga a conservar la historia clínica al menos {RETENTION_YEARS} años desde la última actividad o el fin del tratamiento.
          Dentro de ese plazo, el paciente queda bloqueado: desaparece de tus listados y nadie puede abrir su ficha, y podrá borrarse
          definitivamente al terminar el plazo.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden /> Eliminar paciente
        </Button>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`¿Eliminar a ${name}?`}
        description={
          <>
            Si su historia clínica aún debe conservarse ({RETENTION_YEARS} años), su ficha quedará{' '}
            <strong className="text-foreground">bloqueada</strong> en lugar de borrada y te diremos hasta qué fecha. Si el plazo ya pasó, se
            borrarán para siempre sus datos, su historia clínica y sus documentos.
          </>
        }
        confirmLabel="Eliminar"
        onConfirm={async () => setResult(await remove.mutateAsync())}
      />
      <Modal
        open={!!result}
        onOpenChange={(o) => !o && backToList()}
        size="sm"
        title={result?.result === 'deleted' ? 'Paciente eliminado' : 'Paciente bloqueado'}
        footer={<Button onClick={backToList}>Volver a pacientes</Button>}
      >
        <p className="text-sm leading-relaxed">{result?.message}</p>
      </Modal>
    </Card>
  );
}

export function SettingsTab() {
  const { can } = usePatientDetail();
  return (
    <div className="grid gap-6">
      <ExportCard />
      {can('delete', 'patient_files') ? <DeleteCard /> : null}
      <p className="flex items-center gap-2 text-[0.8125rem] text-muted-foreground">
        <Download className="size-4" aria-hidden /> Las descargas contienen datos de salud: guárdalas en un lugar seguro.
      </p>
    </div>
  );
}

export { SettingsTab as Component };
