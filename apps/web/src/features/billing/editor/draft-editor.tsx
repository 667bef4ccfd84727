import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CalendarCheck, Save, Send, Trash2 } from 'lucide-react';
import { simplifiedInvoiceProblem, VAT_EXEMPT_LEGEND, withholds, type Invoice, type InvoiceTaxSettings, type Session } from '@divan/core';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useUnsavedChanges } from '@/lib/unsaved-changes';
import { useCreateInvoice, useDeleteInvoice, useIssueInvoice, useUpdateInvoice } from '../api/invoices-api';
import { SessionsDialog } from '../components/sessions-dialog';
import { TotalsSummary } from '../components/totals-summary';
import { bodyOf, buyerKindOf, liveTotals, modelOf, modelProblem, sessionLine, type EditorModel } from '../utils/editor-model';
import { BuyerSection } from './buyer-section';
import { LinesEditor } from './lines-editor';
import { ServerError } from './server-error';

type Props = {
  wid: string;
  /** The saved draft; none for a new invoice. */
  invoice: Invoice | null;
  initial: EditorModel;
  settings: InvoiceTaxSettings;
  canDelete: boolean;
  canIssue: boolean;
  /** Open the patient's completed sessions at once (from the patient's «Facturación» tab). */
  pickSessions?: boolean;
};

const same = (a: EditorModel, b: EditorModel) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A draft, new or saved: payer, lines, live totals and footer. Nothing typed is lost: a failed save
 * keeps the form as it is, and leaving with unsaved changes asks first (the shell's guard).
 */
export function DraftEditor({ wid, invoice, initial, settings, canDelete, canIssue, pickSessions = false }: Props) {
  const navigate = useNavigate();
  const [baseline, setBaseline] = useState(initial);
  const [model, setModel] = useState(initial);
  const [showErrors, setShowErrors] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [picking, setPicking] = useState(pickSessions && !!initial.patient);
  const [issuing, setIssuing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const dirty = !same(model, baseline);
  const { release } = useUnsavedChanges(dirty);
  const create = useCreateInvoice(wid);
  const update = useUpdateInvoice(wid);
  const issue = useIssueInvoice(wid);
  const remove = useDeleteInvoice(wid);
  const saving = create.isPending || update.isPending;
  const totals = liveTotals(model, settings);
  const change = (patch: Partial<EditorModel>) => setModel((m) => ({ ...m, ...patch }));

  const onPatient = (patient: EditorModel['patient']) =>
    setModel((m) => {
      // Sessions belong to their patient: another patient's cannot stay on the lines.
      const lines = m.lines.filter((l) => !l.sessionId || patient?.id === m.patient?.id);
      if (lines.length < m.lines.length) toast.info('Se han quitado las sesiones del paciente anterior.');
      return { ...m, patient, lines };
    });

  const addSessions = (sessions: Session[]) => {
    setModel((m) => ({ ...m, lines: [...m.lines, ...sessions.map(sessionLine)] }));
    setPicking(false);
  };

  /** Saves what is on screen (when it changed): the saved draft, or why it could not be. */
  const save = async (): Promise<Invoice | string> => {
    setShowErrors(true);
    const found = modelProblem(model);
    setProblem(found);
    if (found) return found;
    setError(null);
    try {
      if (invoice && !dirty) return invoice;
      const saved = invoice ? await update.mutateAsync({ id: invoice.id, body: bodyOf(model) }) : await create.mutateAsync(bodyOf(model));
      const fresh = modelOf(saved);
      setBaseline(fresh);
      setModel(fresh);
      setShowErrors(false);
      release();
      return saved;
    } catch (e) {
      setError(e);
      return messageOf(e);
    }
  };

  const onSave = async () => {
    const saved = await save();
    if (typeof saved === 'string') return;
    toast.success('Borrador guardado');
    if (!invoice) void navigate(`/billing/editor/${saved.id}`, { replace: true });
  };

  const onIssue = async () => {
    const saved = await save();
    if (typeof saved === 'string') throw new Error(saved);
    try {
      const issued = await issue.mutateAsync(saved.id);
      release();
      toast.success(`Factura ${issued.number ?? ''} emitida`);
      if (!invoice) void navigate(`/billing/editor/${issued.id}`, { replace: true });
    } catch (e) {
      // Saved but not issued: a new draft now has its own address, and the reason stays in the dialog.
      if (!invoice) void navigate(`/billing/editor/${saved.id}`, { replace: true });
      throw new Error(messageOf(e));
    }
  };

  const sessionIds = model.lines.map((l) => l.sessionId).filter((x): x is string => !!x);
  const ownSaved = (invoice?.lines ?? []).map((l) => l.sessionId).filter((x): x is string => !!x);
  const exempt = model.lines.some((l) => l.itemKind === 'therapy');
  // Another payer without a tax id, above 400,00 €: issuing will ask for it (the patient's is in their file).
  const taxIdProblem =
    model.billTo === 'other'
      ? simplifiedInvoiceProblem({ baseCents: totals.subtotalCents, vatCents: totals.vatCents, buyerTaxId: model.buyer.taxId.trim() })
      : null;

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      {problem && showErrors ? (
        <p role="alert" className="rounded-lg border border-destructive/30 bg-destructive/8 px-4 py-3 text-sm text-destructive">
          {problem}
        </p>
      ) : null}
      {error ? <ServerError error={error} /> : null}

      <Card>
        <CardHeader>
          <CardTitle>Destinatario</CardTitle>
          <CardDescription>El paciente de la factura y quién la paga.</CardDescription>
        </CardHeader>
        <CardContent>
          <BuyerSection
            wid={wid}
            model={model}
            showErrors={showErrors}
            onChange={change}
            onPatient={onPatient}
            taxIdProblem={taxIdProblem}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Conceptos</CardTitle>
          <CardDescription>
            La terapia psicológica está exenta de IVA; informes, formación y otros servicios llevan el 21 %.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <LinesEditor
            lines={model.lines}
            totals={totals.lineTotals}
            showErrors={showErrors}
            onChange={(lines) => change({ lines })}
            buyerWithholds={withholds(buyerKindOf(model))}
            sessionsButton={
              model.patient ? (
                <Button type="button" variant="outline" onClick={() => setPicking(true)}>
                  <CalendarCheck aria-hidden /> Añadir sesiones
                </Button>
              ) : null
            }
          />
        </CardContent>
      </Card>

      <div className="grid gap-2">
        <TotalsSummary totals={totals} label="Totales de la factura" />
        {exempt ? <p className="text-[0.8125rem] text-muted-foreground">{VAT_EXEMPT_LEGEND}</p> : null}
      </div>

      <Card>
        <CardContent className="pt-6">
          <Field label="Pie de factura" hint="Se imprime al final: forma de pago, IBAN, un agradecimiento…">
            <Textarea rows={3} maxLength={500} value={model.footer} onChange={(e) => change({ footer: e.target.value })} />
          </Field>
        </CardContent>
      </Card>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-between gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
        {invoice && canDelete ? (
          <Button type="button" variant="ghost" className="text-destructive" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden /> Eliminar borrador
          </Button>
        ) : (
          <span />
        )}
        <div className="flex flex-1 justify-end gap-2 sm:flex-none">
          <Button type="submit" variant="outline" loading={saving && !issuing} className="flex-1 sm:flex-none">
            <Save aria-hidden /> Guardar borrador
          </Button>
          {canIssue ? (
            <Button type="button" className="flex-1 sm:flex-none" onClick={() => setIssuing(true)}>
              <Send aria-hidden /> Emitir factura
            </Button>
          ) : null}
        </div>
      </div>

      {model.patient ? (
        <SessionsDialog
          wid={wid}
          patient={model.patient}
          onInvoice={sessionIds}
          ownSaved={ownSaved}
          open={picking}
          onOpenChange={setPicking}
          onAdd={addSessions}
        />
      ) : null}
      <ConfirmDialog
        open={issuing}
        onOpenChange={setIssuing}
        title="¿Emitir la factura?"
        description="Recibirá el siguiente número de tu serie. Una vez emitida no se puede modificar ni borrar: solo corregir con una factura rectificativa."
        confirmLabel="Emitir factura"
        destructive={false}
        onConfirm={onIssue}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="¿Eliminar el borrador?"
        description="Se borra el borrador y sus sesiones vuelven a quedar sin facturar. No se puede deshacer."
        confirmLabel="Eliminar borrador"
        onConfirm={async () => {
          try {
            await remove.mutateAsync(invoice!.id);
          } catch (e) {
            throw new Error(messageOf(e));
          }
          release();
          toast.success('Borrador eliminado');
          void navigate('/billing');
        }}
      />
    </form>
  );
}
