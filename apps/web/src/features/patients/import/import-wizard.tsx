import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ImportUpload } from '@divan/core';
import { patientKeys } from '../api/keys';
import { useWorkspaceScope } from '../api/workspace';
import { Modal } from '@/components/ui/modal';
import { MappingStep } from './mapping-step';
import { ProgressStep } from './progress-step';
import { UploadStep } from './upload-step';

type Step = { kind: 'upload' } | { kind: 'mapping'; upload: ImportUpload } | { kind: 'running'; importId: string; total: number };

const titles = { upload: 'Importar pacientes desde Excel', mapping: 'Relaciona las columnas', running: 'Importación de pacientes' };
const descriptions = {
  upload: 'Paso 1 de 3 · Sube un archivo .xlsx con una fila por paciente y los títulos en la primera fila.',
  mapping: 'Paso 2 de 3 · Indica qué columna del archivo corresponde a cada dato. Lo hemos rellenado por ti a partir de los títulos.',
  running: 'Paso 3 de 3',
};

/** Upload → map columns with a preview → import with progress → summary of what was left out and why. */
export function ImportWizard({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { workspace } = useWorkspaceScope();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'upload' });

  const close = () => {
    onOpenChange(false);
    // Whatever was imported shows in the list (and its counts) at once.
    void qc.invalidateQueries({ queryKey: patientKeys.lists(workspace.id) });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && close()}
      size={step.kind === 'mapping' ? 'xl' : 'md'}
      modalLock={step.kind !== 'upload'}
      title={titles[step.kind]}
      description={descriptions[step.kind]}
    >
      {step.kind === 'upload' ? (
        <UploadStep wid={workspace.id} onUploaded={(upload) => setStep({ kind: 'mapping', upload })} onCancel={close} />
      ) : null}
      {step.kind === 'mapping' ? (
        <MappingStep
          wid={workspace.id}
          upload={step.upload}
          onBack={() => setStep({ kind: 'upload' })}
          onStarted={(importId) => setStep({ kind: 'running', importId, total: step.upload.totalRows })}
        />
      ) : null}
      {step.kind === 'running' ? (
        <ProgressStep
          wid={workspace.id}
          importId={step.importId}
          total={step.total}
          onDone={close}
          onAgain={() => setStep({ kind: 'upload' })}
        />
      ) : null}
    </Modal>
  );
}
