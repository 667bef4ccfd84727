import { useState } from 'react';
import type { PickedPatient } from '@/components/patient-picker';
import { PageSpinner } from '@/components/ui/spinner';
import { useConsentsScope } from '../components/use-consents-scope';
import { SendConsentDialog } from './send-consent-dialog';
import { SentConsentsList } from './sent-consents-list';

/** The patient's «Consentimientos» tab: what was sent to them and who has signed; send another. */
export function PatientConsentsTab({ patient }: { patient: PickedPatient }) {
  const { wid, ready, canSend, canRevoke } = useConsentsScope();
  const [sending, setSending] = useState(false);
  if (!ready) return <PageSpinner />;
  return (
    <div className="grid gap-4">
      <SentConsentsList wid={wid} patientId={patient.id} canSend={canSend} canRevoke={canRevoke} onSend={() => setSending(true)} />
      {canSend ? <SendConsentDialog wid={wid} patient={patient} open={sending} onOpenChange={setSending} /> : null}
    </div>
  );
}
