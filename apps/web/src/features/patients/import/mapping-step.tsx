import { useId, useState } from 'react';
import { ArrowLeft } from 'lucide-react';
import { IMPORT_FIELD_NAMES, IMPORT_FIELDS, importCommitBody, type ImportField, type ImportUpload } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { useCommitImport } from '../api/import-api';
import { NativeSelect } from '@/components/ui/native-select';
import { messageOf } from '../utils/errors';
import { formatCount } from '../utils/format';

type Mapping = Partial<Record<ImportField, number | null>>;
const letter = (i: number) =>
  i < 26 ? String.fromCharCode(65 + i) : `${String.fromCharCode(64 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;

export function MappingStep({
  wid,
  upload,
  onBack,
  onStarted,
}: {
  wid: string;
  upload: ImportUpload;
  onBack: () => void;
  onStarted: (importId: string) => void;
}) {
  const commit = useCommitImport(wid);
  const [mapping, setMapping] = useState<Mapping>(() => ({ ...upload.suggestedMapping }));
  const [error, setError] = useState<string | null>(null);
  const idPrefix = useId();
  const columnOptions = upload.columns.map((c, i) => ({ value: String(i), label: `${letter(i)} · ${c || '(sin título)'}` }));
  const fieldOfColumn = new Map(
    Object.entries(mapping).flatMap(([f, c]) => (c === null || c === undefined ? [] : [[c, f as ImportField] as const])),
  );

  const choose = (field: ImportField, value: string) => {
    const column = value === '' ? null : Number(value);
    setMapping((m) => {
      const next: Mapping = { ...m, [field]: column };
      // A column feeds one field: taking it elsewhere frees it here.
      for (const f of IMPORT_FIELD_NAMES) if (f !== field && column !== null && next[f] === column) next[f] = null;
      return next;
    });
  };

  const start = () => {
    const parsed = importCommitBody.safeParse({ mapping });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Revisa las columnas');
    setError(null);
    commit.mutate(
      { importId: upload.importId, mapping },
      { onSuccess: (r) => onStarted(r.importId), onError: (e) => setError(messageOf(e)) },
    );
  };

  return (
    <div className="grid gap-6">
      <section aria-labelledby={`${idPrefix}-fields`} className="grid gap-3">
        <h3 id={`${idPrefix}-fields`} className="text-[0.9375rem] font-semibold">
          Datos de Diván
        </h3>
        <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
          {IMPORT_FIELD_NAMES.map((field) => {
            const id = `${idPrefix}-${field}`;
            return (
              <div key={field} className="grid gap-1.5">
                <Label htmlFor={id}>
                  {IMPORT_FIELDS[field]}
                  {field === 'firstName' ? <span className="text-destructive"> *</span> : null}
                </Label>
                <NativeSelect
                  id={id}
                  value={mapping[field] === null || mapping[field] === undefined ? '' : String(mapping[field])}
                  onChange={(e) => choose(field, e.target.value)}
                  placeholder="— No importar —"
                  options={columnOptions}
                />
              </div>
            );
          })}
        </div>
      </section>

      <section aria-labelledby={`${idPrefix}-preview`} className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id={`${idPrefix}-preview`} className="text-[0.9375rem] font-semibold">
            Vista previa
          </h3>
          <span className="text-[0.8125rem] text-muted-foreground">
            Primeras {upload.sampleRows.length} de {formatCount(upload.totalRows)} filas
          </span>
        </div>
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-[0.8125rem]">
            <thead className="bg-muted/50">
              <tr>
                {upload.columns.map((c, i) => {
                  const field = fieldOfColumn.get(i);
                  return (
                    <th
                      key={i}
                      scope="col"
                      className={cn('whitespace-nowrap px-3 py-2 text-left align-bottom font-medium', !field && 'text-muted-foreground')}
                    >
                      <span className="block text-[0.6875rem] font-semibold uppercase tracking-wide text-primary">
                        {field ? IMPORT_FIELDS[field] : 'No se importa'}
                      </span>
                      {letter(i)} · {c}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody className="divide-y">
              {upload.sampleRows.map((row, r) => (
                <tr key={r}>
                  {upload.columns.map((_, i) => (
                    <td
                      key={i}
                      className={cn('max-w-56 truncate whitespace-nowrap px-3 py-2', !fieldOfColumn.has(i) && 'text-muted-foreground/70')}
                    >
                      {row[i] ?? ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {error ? <Alert variant="error">{error}</Alert> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="ghost" onClick={onBack}>
          <ArrowLeft aria-hidden /> Elegir otro archivo
        </Button>
        <Button onClick={start} loading={commit.isPending}>
          Importar {formatCount(upload.totalRows)} {upload.totalRows === 1 ? 'fila' : 'filas'}
        </Button>
      </div>
    </div>
  );
}
