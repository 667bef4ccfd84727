import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Send } from 'lucide-react';
import {
  CONSENT_SIGNER_ROLE_LABELS,
  DEFAULT_TIME_ZONE,
  MINOR_EXCEPTION_REASONS,
  ageOn,
  signerRolesFor,
  todayIn,
  type ConsentSignerRole,
  type MinorExceptionReason,
  type SentConsent,
} from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { PatientPicker, type PickedPatient } from '@/components/patient-picker';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/http';
import { messageOf } from '@/lib/error-message';
import { useAuthStore } from '@/stores/auth-store';
import { useConsentTemplate, useConsentTemplates } from '../api/consent-templates-api';
import { useConsentSendCheck, usePatientForSending, useSendConsent } from '../api/consent-envelopes-api';
import { Modal } from '@/components/ui/modal';
import { SignatureInput } from '../components/signature-input';
import { SentLinks } from './sent-links';
import { MissingVariables } from './missing-variables';

type Props = {
  wid: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** From the patient's tab: the patient is fixed. */
  patient?: PickedPatient;
};

type Contact = { name: string; email: string };
const EMPTY: Contact = { name: '', email: '' };
const REASONS = Object.entries(MINOR_EXCEPTION_REASONS).map(([value, label]) => ({ value, label }));

/** Who signs, in words, for the therapist about to send. */
function whoSigns(roles: ConsentSignerRole[], age: number | null, exception: boolean): string {
  if (roles[0] === 'patient')
    return age !== null && age < 18
      ? `Tiene ${age} años: a partir de 16 firma su propio consentimiento (Ley 41/2002, art. 9.4).`
      : 'Firma el paciente.';
  if (exception) return 'Firma solo un tutor (art. 156 del Código Civil): queda registrado el motivo.';
  if (roles.length === 2)
    return `${age !== null ? `Tiene ${age} años: f` : 'F'}irman sus dos tutores, por turnos: el segundo recibe su enlace cuando firme el primero.`;
  return 'Firma su tutor.';
}

/**
 * «Enviar consentimiento»: a template's current version to a patient, mailed with a signing link per
 * signer (a minor's guardians in turn). The links are shown afterwards to copy and send by other means.
 */
export function SendConsentDialog({ wid, open, onOpenChange, patient: fixed }: Props) {
  const templates = useConsentTemplates(wid, { archived: false, page: 1, pageSize: 100, sort: 'name' });
  const [templateId, setTemplateId] = useState('');
  const [picked, setPicked] = useState<PickedPatient | null>(fixed ?? null);
  const target = usePatientForSending(wid, picked?.id ?? null);
  const [patientEmail, setPatientEmail] = useState<string | null>(null);
  const [guardian, setGuardian] = useState<Contact>(EMPTY);
  const [second, setSecond] = useState<Contact>(EMPTY);
  const [exception, setException] = useState(false);
  const [reason, setReason] = useState<MinorExceptionReason | ''>('');
  const [informed, setInformed] = useState(false);
  const [sendBlank, setSendBlank] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [sent, setSent] = useState<SentConsent | null>(null);
  const send = useSendConsent(wid);

  const [signature, setSignature] = useState<string | null>(null);
  const userId = useAuthStore((st) => st.userId);
  const items = templates.data?.items ?? [];
  const template = items.find((t) => t.id === (templateId || items[0]?.id)) ?? null;
  // The therapist's signature on what is sent is the sender's own: asked here unless the template keeps theirs.
  const detail = useConsentTemplate(wid, template?.signatures.therapist ? template.id : null);
  const keptIsMine = !!detail.data?.therapistSignature && detail.data.therapistSignature.signedBy?.id === userId;
  const asksSignature = !!template?.signatures.therapist && !!detail.data && !keptIsMine;
  const age = target.data?.birthdate ? ageOn(target.data.birthdate, todayIn(DEFAULT_TIME_ZONE, new Date())) : null;
  // What the document would leave blank for this patient: said before sending, with a way to fill it.
  const check = useConsentSendCheck(wid, picked?.id ?? null, template?.id ?? null);
  const missing = check.data?.missing ?? [];
  const plan = useMemo(
    () => (template ? signerRolesFor({ age, signatures: template.signatures, exception }) : null),
    [template, age, exception],
  );
  const roles = plan?.roles ?? [];
  const guardiansSign = roles[0] === 'guardian';
  const email = patientEmail ?? target.data?.email ?? '';
  const dirty =
    !sent &&
    (guardian.name + guardian.email + second.name + second.email !== '' ||
      patientEmail !== null ||
      exception ||
      !!signature ||
      (!fixed && !!picked));
  const discard = useConfirmDiscard(dirty);

  const reset = () => {
    setTemplateId('');
    setPicked(fixed ?? null);
    setPatientEmail(null);
    setGuardian(EMPTY);
    setSecond(EMPTY);
    setException(false);
    setReason('');
    setInformed(false);
    setSendBlank(false);
    setSignature(null);
    setError(null);
    setSent(null);
  };
  const close = () =>
    discard.confirm(() => {
      reset();
      onOpenChange(false);
    });

  const submit = async () => {
    if (!template || !picked) return;
    setError(null);
    try {
      const result = await send.mutateAsync({
        patientId: picked.id,
        templateId: template.id,
        signers: {
          ...(roles.includes('patient') && email ? { patient: { email } } : {}),
          ...(roles.includes('guardian') ? { guardian } : {}),
          ...(roles.includes('secondGuardian') ? { secondGuardian: second } : {}),
        },
        minorException: guardiansSign && exception && reason ? { reason, otherGuardianInformed: informed as true } : null,
        ...(asksSignature && signature ? { therapistSignature: signature } : {}),
        ...(missing.length && sendBlank ? { confirmMissing: true } : {}),
      });
      discard.release();
      setSent(result);
    } catch (e) {
      const fields = isApiError(e) ? Object.fromEntries(e.fields.map((f) => [f.path.split('.').slice(0, 2).join('.'), f.message])) : {};
      setError({ message: messageOf(e), fields });
      // Something went blank since the check (a profile changed elsewhere): the warning shows it.
      if (isApiError(e) && e.code === 'consent_variables_missing') void check.refetch();
    }
  };

  const exceptionOk = !exception || (!!reason && informed);
  const contactsOk = roles.every((r) =>
    r === 'patient'
      ? !!email.trim()
      : !!(r === 'guardian' ? guardian : second).name.trim() && !!(r === 'guardian' ? guardian : second).email.trim(),
  );
  const signatureOk = !template?.signatures.therapist || (!!detail.data && (!asksSignature || !!signature));
  const blanksOk = !!check.data && (!missing.length || sendBlank);
  const canSend = !!template && !!picked && !!target.data && exceptionOk && contactsOk && signatureOk && blanksOk && !send.isPending;

  const contactFields = (role: 'guardian' | 'secondGuardian', value: Contact, set: (c: Contact) => void) => (
    <fieldset className="grid gap-3 rounded-lg border p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-medium">{CONSENT_SIGNER_ROLE_LABELS[role]}</legend>
      <Field label="Nombre y apellidos" error={error?.fields[`signers.${role}`]}>
        <Input value={value.name} onChange={(e) => set({ ...value, name: e.target.value })} maxLength={200} autoComplete="off" />
      </Field>
      <Field label="Email">
        <Input
          type="email"
          value={value.email}
          onChange={(e) => set({ ...value, email: e.target.value })}
          maxLength={254}
          autoComplete="off"
        />
      </Field>
    </fieldset>
  );

  return (
    <Modal
      open={open}
      onOpenChange={(o) => (o ? onOpenChange(true) : close())}
      modalLock={dirty}
      title={sent ? 'Consentimiento enviado' : 'Enviar consentimiento'}
      description={sent ? undefined : 'Cada firmante recibe por email su propio enlace de firma, que caduca a los 30 días.'}
      footer={
        sent ? (
          <Button onClick={close}>Hecho</Button>
        ) : (
          <>
            <Button variant="outline" onClick={close}>
              Cancelar
            </Button>
            <Button onClick={() => void submit()} disabled={!canSend} loading={send.isPending}>
              <Send aria-hidden /> Enviar
            </Button>
          </>
        )
      }
    >
      {sent ? (
        <SentLinks sent={sent} />
      ) : templates.isPending ? (
        <div className="grid place-items-center py-10">
          <Spinner />
        </div>
      ) : items.length === 0 ? (
        <Alert>
          Aún no tienes plantillas de consentimiento. <Link to="/consents">Crea una o usa una de Diván</Link> y vuelve a enviarla.
        </Alert>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (canSend) void submit();
          }}
        >
          {error ? <Alert variant="error">{error.message}</Alert> : null}
          <Field label="Plantilla">
            <NativeSelect
              value={template?.id ?? ''}
              onChange={(e) => setTemplateId(e.target.value)}
              options={items.map((t) => ({ value: t.id, label: t.name }))}
            />
          </Field>
          {fixed ? null : (
            <Field label="Paciente">
              <PatientPicker workspaceId={wid} value={picked} onChange={setPicked} />
            </Field>
          )}
          {picked && target.isPending ? <Spinner /> : null}
          {picked && missing.length ? (
            <MissingVariables wid={wid} missing={missing} patientId={picked.id} confirmed={sendBlank} onConfirm={setSendBlank} />
          ) : null}
          {picked && target.data && plan ? (
            <>
              <p className="rounded-lg bg-muted/60 px-3 py-2 text-sm">{whoSigns(roles, age, exception)}</p>
              {roles.includes('patient') ? (
                <Field
                  label="Email del paciente"
                  error={error?.fields['signers.patient']}
                  hint={target.data.email ? 'El de su ficha; cámbialo solo para este envío.' : 'Su ficha no tiene email: escríbelo aquí.'}
                >
                  <Input type="email" value={email} onChange={(e) => setPatientEmail(e.target.value)} maxLength={254} />
                </Field>
              ) : null}
              {roles.includes('guardian') ? contactFields('guardian', guardian, setGuardian) : null}
              {roles.includes('secondGuardian') ? contactFields('secondGuardian', second, setSecond) : null}
              {guardiansSign ? (
                <div className="grid gap-3 rounded-lg border border-dashed p-3">
                  <label className="flex items-start gap-2 text-sm">
                    <input type="checkbox" className="mt-0.5 size-4" checked={exception} onChange={(e) => setException(e.target.checked)} />
                    <span>Firma solo un tutor (excepción del art. 156 del Código Civil)</span>
                  </label>
                  {exception ? (
                    <>
                      <Field label="Motivo" error={error?.fields['minorException.reason']}>
                        <NativeSelect
                          value={reason}
                          onChange={(e) => setReason(e.target.value as MinorExceptionReason)}
                          options={REASONS}
                          placeholder="Elige el motivo"
                        />
                      </Field>
                      <label className="flex items-start gap-2 text-sm">
                        <input
                          type="checkbox"
                          className="mt-0.5 size-4"
                          checked={informed}
                          onChange={(e) => setInformed(e.target.checked)}
                        />
                        <span>El otro progenitor ha sido informado de la atención psicológica.</span>
                      </label>
                    </>
                  ) : null}
                </div>
              ) : null}
            </>
          ) : null}
          {asksSignature ? (
            <div className="grid gap-2 rounded-lg border p-3">
              <p className="text-sm font-medium">Tu firma</p>
              <p className="text-[0.8125rem] text-muted-foreground">
                {detail.data?.therapistSignature
                  ? `La firma guardada en la plantilla es de ${detail.data.therapistSignature.signedBy?.name ?? 'otra persona'}: este documento lo firmas tú.`
                  : 'Esta plantilla la firma también el terapeuta.'}
              </p>
              <SignatureInput value={signature} onChange={setSignature} label="Tu firma" invalid={!!error?.fields.therapistSignature} />
              {error?.fields.therapistSignature ? (
                <p role="alert" className="text-[0.8125rem] font-medium text-destructive">
                  {error.fields.therapistSignature}
                </p>
              ) : null}
            </div>
          ) : null}
          {target.isError ? <Alert variant="error">{messageOf(target.error)}</Alert> : null}
          {check.isError ? <Alert variant="error">{messageOf(check.error)}</Alert> : null}
        </form>
      )}
      {discard.dialog}
    </Modal>
  );
}
