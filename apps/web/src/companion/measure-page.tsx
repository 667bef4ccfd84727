import { useEffect, useState } from 'react';
import { MEASURES, answerProblems } from '@divan/core/rules';
import type { PublicMeasure } from '@divan/core';
import { AnswerItems, MeasureCopyright } from '../lib/measures/answer-items';
import { CrisisLine } from '../lib/measures/crisis-line';
import { useAnswerSheet } from '../lib/measures/use-answer-sheet';
import { call } from './api';
import { asFailure, isAbort, messageOf, type Failure } from './errors';
import { Alert, Button, h1Class, ListSkeleton } from './ui';

const path = (token: string) => `/public/measures/${encodeURIComponent(token)}`;
const LINK_PROBLEMS: Record<string, string> = {
  measure_already_answered: 'Cuestionario ya respondido',
  measure_link_expired: 'Enlace caducado',
  measure_link_invalid: 'Enlace no válido',
};

/**
 * `/p/cuestionario/:token`: the patient answers a measure from the mailed link, without signing in.
 * Phone first; every item required, with the progress shown; a risk answer shows the crisis line
 * (024) and nothing else automated; a used, expired or cancelled link says so.
 */
export function MeasurePage({ token }: { token: string }) {
  const [view, setView] = useState<PublicMeasure | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { answers, missing, answered, answer, reset, markMissing } = useAnswerSheet(0);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [done, setDone] = useState<{ crisisLine: boolean } | null>(null);
  const m = view ? MEASURES[view.measure] : null;

  useEffect(() => {
    const abort = new AbortController();
    call<PublicMeasure>(path(token), { signal: abort.signal, auth: 'none' })
      .then((v) => {
        setView(v);
        reset(MEASURES[v.measure].items.length);
      })
      .catch((e: unknown) => {
        if (!isAbort(e)) setFailure(asFailure(e));
      });
    return () => abort.abort();
  }, [token, reset]);

  useEffect(() => {
    if (m) document.title = `${m.shortName} · Diván`;
  }, [m]);

  const risk = !!m && m.riskItems.some((n) => (answers[n - 1] ?? 0) > 0);

  const submit = async () => {
    if (!m) return;
    const problems = answerProblems(m, answers);
    if (problems.length) {
      const idx = markMissing(problems);
      setSendError(idx.length === 1 ? 'Falta 1 pregunta por responder.' : `Faltan ${idx.length} preguntas por responder.`);
      document.querySelector<HTMLElement>(`[data-testid="item-${idx[0]! + 1}"] input`)?.focus();
      return;
    }
    setSending(true);
    setSendError(null);
    try {
      const r = await call<{ completed: true; crisisLine: boolean }>(`${path(token)}/answers`, {
        method: 'POST',
        body: { answers },
        auth: 'none',
      });
      setDone({ crisisLine: r.crisisLine });
      window.scrollTo({ top: 0 });
    } catch (e) {
      const f = asFailure(e);
      if (f.code === 'measure_incomplete') {
        markMissing(f.fields);
        setSendError(messageOf(f));
      } else if (LINK_PROBLEMS[f.code]) setFailure(f);
      else setSendError(messageOf(f));
    } finally {
      setSending(false);
    }
  };

  if (done)
    return (
      <div className="grid gap-4" data-testid="measure-done">
        <h1 className={h1Class}>Gracias</h1>
        <p>Tus respuestas se han enviado a tu terapeuta.</p>
        {done.crisisLine ? <CrisisLine /> : null}
      </div>
    );
  if (failure)
    return (
      <div className="grid gap-3" data-testid="measure-link-problem">
        <h1 className={h1Class}>{LINK_PROBLEMS[failure.code] ?? 'No se pudo abrir el cuestionario'}</h1>
        <p>{messageOf(failure)}</p>
      </div>
    );
  if (!view || !m) return <ListSkeleton rows={3} />;
  return (
    <form
      className="grid gap-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="grid gap-2">
        <p className="text-[0.9375rem] text-muted-foreground">{view.workspaceName || 'Tu terapeuta'} te pide responder</p>
        <h1 className={h1Class}>{m.name}</h1>
        <p>{m.instructions}</p>
      </div>
      <div className="sticky top-14 z-[5] grid gap-1.5 bg-background/95 py-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {answered} de {m.items.length} respondidas
        </p>
        <div
          role="progressbar"
          aria-label="Progreso del cuestionario"
          aria-valuemin={0}
          aria-valuemax={m.items.length}
          aria-valuenow={answered}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full bg-primary transition-[width]" style={{ width: `${(answered / m.items.length) * 100}%` }} />
        </div>
      </div>
      <AnswerItems measure={m} answers={answers} idPrefix="answer" missing={missing} onAnswer={answer} />
      {risk ? <CrisisLine /> : null}
      {sendError ? <Alert testId="answer-error">{sendError}</Alert> : null}
      <Button type="submit" loading={sending} className="w-full sm:w-auto sm:justify-self-start">
        Enviar respuestas
      </Button>
      <MeasureCopyright measure={m} />
    </form>
  );
}
