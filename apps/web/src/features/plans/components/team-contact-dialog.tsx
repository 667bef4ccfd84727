import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { FEEDBACK_PAGE_MAX, msg, type FeedbackBody } from '@divan/core';
import { useConfirmDiscard } from '@/components/ui/confirm-discard';
import { Field } from '@/components/ui/field';
import { ModalForm } from '@/components/ui/form-dialog';
import { Input, Textarea } from '@/components/ui/input';
import { useSaveForm } from '@/lib/use-save-form';
import { useSendTeamInquiry } from '../api/plans-api';
import { planTexts, TEAM_MESSAGE_MAX, TEAM_SIZE_MAX, teamInquiryMessage } from '../utils/plan-offer';

const teamForm = z.object({
  therapists: z
    .string()
    .trim()
    .min(1, { error: 'Indica cuántos terapeutas sois' })
    .regex(/^\d+$/, { error: 'Escribe un número entero, por ejemplo 6' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: 'Al menos 1 terapeuta' })
        .max(TEAM_SIZE_MAX, { error: msg.max(TEAM_SIZE_MAX.toLocaleString('es-ES')) }),
    ),
  message: z.string().max(TEAM_MESSAGE_MAX, { error: msg.maxLength(TEAM_MESSAGE_MAX) }),
});
type FormIn = z.input<typeof teamForm>;
type FormOut = z.output<typeof teamForm>;
const empty: FormIn = { therapists: '', message: '' };

/**
 * «Consultar precio» of the Team plan: how many therapists and what they need, sent to Diván's team through
 * the feedback endpoint (topic team_plan, mailed to the operator with its own subject). Mounted per opening.
 */
export function TeamContactDialog({ workspaceName, page, onClose }: { workspaceName: string; page: string; onClose: () => void }) {
  const send = useSendTeamInquiry();
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(teamForm), defaultValues: empty });
  const { errors, isSubmitting } = form.formState;
  // Only what was really typed counts: blank space is nothing to lose.
  const typed = Object.values(form.watch()).some((v) => v.trim() !== '');
  const discard = useConfirmDiscard(typed);
  const { onSubmit, formError } = useSaveForm(form, {
    save: (v: FormOut) =>
      send.mutateAsync({
        message: teamInquiryMessage({ workspaceName, therapists: v.therapists, message: v.message }),
        page: page.slice(0, FEEDBACK_PAGE_MAX),
        topic: 'team_plan',
      } satisfies FeedbackBody),
    success: planTexts.inquirySent,
    onSaved: () => {
      discard.release();
      onClose();
    },
    fields: ['message'],
  });

  return (
    <>
      <ModalForm
        id="team-contact-form"
        title="Consultar el precio de Team"
        description="Team se ajusta a cada equipo. Cuéntanos cuántos sois y qué necesitáis: te responderemos a tu email."
        dirty={typed}
        onClose={() => discard.confirm(onClose)}
        error={formError}
        pending={isSubmitting}
        confirmLabel="Enviar consulta"
        onConfirm={onSubmit}
        className="grid gap-4"
      >
        <Field label="¿Cuántos terapeutas sois?" error={errors.therapists?.message} hint="Contando contigo.">
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={TEAM_SIZE_MAX}
            step={1}
            className="max-w-32"
            {...form.register('therapists')}
          />
        </Field>
        <Field label="Mensaje" error={errors.message?.message} hint="Opcional: sedes, cómo os organizáis, desde cuándo lo necesitáis…">
          <Textarea rows={5} placeholder="Por ejemplo: somos un centro con dos sedes y…" {...form.register('message')} />
        </Field>
      </ModalForm>
      {discard.dialog}
    </>
  );
}
