import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation } from 'react-router';
import {
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_MESSAGE_MIN,
  FEEDBACK_PAGE_MAX,
  feedbackBody,
  feedbackMessages,
  type FeedbackBody,
} from '@divan/core';
import type { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useSaveForm } from '@/lib/use-save-form';
import { useSendFeedback } from '../api/help-api';

const feedbackForm = feedbackBody.pick({ message: true });
type FormIn = z.input<typeof feedbackForm>;
type FormOut = z.output<typeof feedbackForm>;

/** A comment to Diván's team: checked here with the server's own rules, kept and (if configured) mailed there. */
export function FeedbackForm() {
  const send = useSendFeedback();
  const { pathname } = useLocation();
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(feedbackForm), defaultValues: { message: '' } });
  const { errors, isDirty, isSubmitting } = form.formState;
  const typed = form.watch('message').trim().length;
  // Leaving with typed text asks first (the shell's guard); blank space is nothing to lose.
  useUnsavedChanges(isDirty && typed > 0);
  const { onSubmit, formError } = useSaveForm(form, {
    save: (v: FormOut) => send.mutateAsync({ message: v.message, page: pathname.slice(0, FEEDBACK_PAGE_MAX) } satisfies FeedbackBody),
    success: feedbackMessages.sent,
    onSaved: () => form.reset({ message: '' }),
    fields: ['message'],
  });
  const over = typed > FEEDBACK_MESSAGE_MAX;

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="feedback-title">
      <Card>
        <CardHeader>
          <CardTitle id="feedback-title">Envíanos un comentario</CardTitle>
          <CardDescription>
            Una idea, algo que echas en falta o algo que no funciona como esperabas: lo leemos todo. Si hace falta, te responderemos a tu
            email.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {formError ? <Alert variant="error">{formError}</Alert> : null}
          <Field
            label="Tu comentario"
            error={errors.message?.message}
            hint={`Entre ${FEEDBACK_MESSAGE_MIN} y ${FEEDBACK_MESSAGE_MAX.toLocaleString('es-ES')} caracteres. Ctrl (o ⌘) + Intro también lo envía.`}
            aside={
              <span className={cn('text-xs tabular-nums text-muted-foreground', over && 'font-medium text-destructive')} aria-hidden>
                {typed.toLocaleString('es-ES')} / {FEEDBACK_MESSAGE_MAX.toLocaleString('es-ES')}
              </span>
            }
          >
            <Textarea
              rows={7}
              placeholder="Por ejemplo: me gustaría poder…"
              {...form.register('message')}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  void onSubmit();
                }
              }}
            />
          </Field>
        </CardContent>
        <CardFooter>
          <Button type="submit" loading={isSubmitting} className="w-full sm:w-auto">
            Enviar
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
