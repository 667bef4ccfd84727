import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Archive, FileSignature, LibraryBig, Pencil, Plus, SearchX } from 'lucide-react';
import type { ConsentTemplateSummary } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { Pagination } from '@/components/ui/pagination';
import { RowDangerAction } from '@/components/ui/row-actions';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState, LoadError } from '@/components/ui/states';
import { formatDate } from '@/lib/format';
import { messageOf } from '@/lib/error-message';
import { toast } from '@/lib/toast';
import { useArchiveTemplate, useConsentTemplates } from '../api/consent-templates-api';
import { ReadyMadeDialog, signersOf } from '../components/ready-made-dialog';
import { useConsentsScope } from '../components/use-consents-scope';

const PAGE_SIZE = 20;

type ListState = { q: string; archived: boolean; page: number };

function readState(p: URLSearchParams): ListState {
  const page = Number(p.get('page'));
  return { q: (p.get('q') ?? '').slice(0, 100), archived: p.get('archived') === '1', page: Number.isInteger(page) && page > 0 ? page : 1 };
}
function writeState(s: ListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q.trim()) p.set('q', s.q);
  if (s.archived) p.set('archived', '1');
  if (s.page > 1) p.set('page', String(s.page));
  return p;
}

/** The list's state in the URL; any change but paging goes back to page 1. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readState(params), [params]);
  const update = useCallback(
    (patch: Partial<ListState>, options: { replace?: boolean } = {}) =>
      setParams((prev) => writeState({ ...readState(prev), page: 1, ...patch }), { replace: options.replace }),
    [setParams],
  );
  return [state, update] as const;
}

function RowMenu({ t, canDelete, onArchive }: { t: ConsentTemplateSummary; canDelete: boolean; onArchive: () => void }) {
  if (!canDelete || t.archivedAt) return null;
  return <RowDangerAction label={`Acciones de ${t.name}`} icon={<Archive aria-hidden />} action="Archivar…" onSelect={onArchive} />;
}

function TemplateRow({
  t,
  canDelete,
  canUpdate,
  onArchive,
}: {
  t: ConsentTemplateSummary;
  canDelete: boolean;
  canUpdate: boolean;
  onArchive: () => void;
}) {
  return (
    <li className="flex items-start gap-3 px-4 py-3.5 sm:items-center">
      <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground sm:mt-0 [&_svg]:size-4.5">
        <FileSignature aria-hidden />
      </span>
      <div className="grid min-w-0 flex-1 gap-1 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4">
        <div className="grid min-w-0 gap-0.5">
          {t.archivedAt ? (
            <span className="break-words font-medium sm:truncate">{t.name}</span>
          ) : (
            <Link to={`/consents/editor/${t.id}`} className="break-words font-medium hover:underline sm:truncate">
              {t.name}
            </Link>
          )}
          <span className="break-words text-sm text-muted-foreground sm:truncate">{t.documentTitle}</span>
          <span className="flex flex-wrap gap-1 pt-0.5">
            {signersOf(t.signatures).map((s) => (
              <Badge key={s} variant="outline">
                {s}
              </Badge>
            ))}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[0.8125rem] text-muted-foreground sm:justify-end">
          <span className="tabular-nums">Versión {t.version}</span>
          <span>{t.archivedAt ? `Archivada el ${formatDate(t.archivedAt)}` : `Modificada el ${formatDate(t.updatedAt)}`}</span>
        </div>
      </div>
      {!t.archivedAt && canUpdate ? (
        <span className="hidden sm:block">
          <Button asChild variant="ghost" size="sm">
            <Link to={`/consents/editor/${t.id}`} aria-label={`Editar ${t.name}`}>
              <Pencil aria-hidden /> Editar
            </Link>
          </Button>
        </span>
      ) : null}
      <RowMenu t={t} canDelete={canDelete} onArchive={onArchive} />
    </li>
  );
}

function ListSkeleton() {
  return (
    <ul className="divide-y rounded-xl border bg-card" aria-hidden>
      {[0, 1, 2].map((i) => (
        <li key={i} className="flex items-center gap-3 px-4 py-4">
          <span className="size-9 animate-pulse rounded-lg bg-muted" />
          <span className="grid flex-1 gap-2">
            <span className="h-4 w-1/3 animate-pulse rounded bg-muted" />
            <span className="h-3 w-1/2 animate-pulse rounded bg-muted" />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The workspace's consent templates: search, archived filter, pages, ready-made ones, archive. */
export function TemplatesList() {
  const { wid, canCreate, canUpdate, canDelete } = useConsentsScope();
  const [state, update] = useListState();
  const list = useConsentTemplates(wid, {
    q: state.q.trim() || undefined,
    archived: state.archived,
    page: state.page,
    pageSize: PAGE_SIZE,
    sort: 'name',
  });
  const archive = useArchiveTemplate(wid);
  const [readyMade, setReadyMade] = useState(false);
  const [archiving, setArchiving] = useState<ConsentTemplateSummary | null>(null);
  const onSearch = useCallback((q: string) => update({ q }, { replace: true }), [update]);
  const data = list.data;
  const filtered = !!state.q.trim() || state.archived;
  const nothingAtAll = data && data.total === 0 && !filtered;

  const actions = canCreate ? (
    <>
      <Button type="button" variant="outline" className="flex-1 sm:flex-none" onClick={() => setReadyMade(true)}>
        <LibraryBig aria-hidden /> Usar una plantilla de Diván
      </Button>
      <Button asChild className="flex-1 sm:flex-none">
        <Link to="/consents/editor">
          <Plus aria-hidden /> Nueva plantilla
        </Link>
      </Button>
    </>
  ) : null;

  return (
    <>
      {nothingAtAll ? (
        <div className="rounded-xl border border-dashed bg-card">
          <EmptyState
            icon={<FileSignature aria-hidden />}
            title="Aún no tienes plantillas de consentimiento"
            text={
              canCreate
                ? 'Empieza con una plantilla de Diván (consentimiento informado, protección de datos, sesiones online, menores, grabación) y adáptala, o escribe la tuya.'
                : 'Quien administra el espacio aún no ha creado ninguna.'
            }
          >
            {canCreate ? (
              <>
                <Button type="button" onClick={() => setReadyMade(true)}>
                  <LibraryBig aria-hidden /> Usar una plantilla de Diván
                </Button>
                <Button asChild variant="outline">
                  <Link to="/consents/editor">
                    <Plus aria-hidden /> Nueva plantilla
                  </Link>
                </Button>
              </>
            ) : null}
            <Button type="button" variant="ghost" onClick={() => update({ archived: true })}>
              <Archive aria-hidden /> Ver las archivadas
            </Button>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="grid gap-3 sm:flex sm:flex-wrap sm:items-center">
            <SearchInput
              className="sm:w-[22rem]"
              value={state.q}
              onSearch={onSearch}
              placeholder="Nombre o título del documento"
              aria-label="Buscar plantillas"
            />
            <NativeSelect
              aria-label="Estado"
              className="sm:w-44"
              options={[
                { value: 'active', label: 'En uso' },
                { value: 'archived', label: 'Archivadas' },
              ]}
              value={state.archived ? 'archived' : 'active'}
              onChange={(e) => update({ archived: e.target.value === 'archived' })}
            />
            <div className="flex flex-wrap gap-2 sm:ml-auto">{actions}</div>
          </div>
          <section aria-label="Plantillas de consentimiento" aria-busy={list.isFetching} className="grid gap-4">
            {list.isError && !data ? (
              <LoadError error={list.error} onRetry={() => void list.refetch()} what="las plantillas" />
            ) : !data ? (
              <ListSkeleton />
            ) : data.items.length === 0 ? (
              <div className="rounded-xl border bg-card">
                <EmptyState
                  icon={<SearchX aria-hidden />}
                  title={state.archived && !state.q.trim() ? 'No hay plantillas archivadas' : 'Ninguna plantilla coincide'}
                  text={state.archived && !state.q.trim() ? 'Las plantillas que archives aparecerán aquí.' : 'Prueba con otro nombre.'}
                >
                  <Button variant="outline" onClick={() => update({ q: '', archived: false })}>
                    Ver las plantillas en uso
                  </Button>
                </EmptyState>
              </div>
            ) : (
              <ul className={`divide-y rounded-xl border bg-card ${list.isPlaceholderData ? 'opacity-60' : ''} transition-opacity`}>
                {data.items.map((t) => (
                  <TemplateRow key={t.id} t={t} canDelete={canDelete} canUpdate={canUpdate} onArchive={() => setArchiving(t)} />
                ))}
              </ul>
            )}
            {data && data.total > 0 ? (
              <Pagination page={state.page} pageSize={PAGE_SIZE} total={data.total} onPage={(page) => update({ page })} />
            ) : null}
          </section>
        </>
      )}

      {canCreate ? <ReadyMadeDialog wid={wid} open={readyMade} onOpenChange={setReadyMade} /> : null}
      <ConfirmDialog
        open={!!archiving}
        onOpenChange={(open) => !open && setArchiving(null)}
        title="¿Archivar la plantilla?"
        description={`«${archiving?.name ?? ''}» dejará de ofrecerse para enviar. Los consentimientos ya enviados con ella conservan su texto.`}
        confirmLabel="Archivar"
        onConfirm={async () => {
          if (!archiving) return;
          try {
            await archive.mutateAsync(archiving.id);
          } catch (e) {
            throw new Error(messageOf(e));
          }
          toast.success(`Plantilla «${archiving.name}» archivada`);
        }}
      />
    </>
  );
}
