import { useCallback } from 'react';
import { Link } from 'react-router';
import { GraduationCap, SearchX, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { SearchInput } from '@/components/ui/search-input';
import { EmptyState } from '@/components/ui/states';
import { plural } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';
import { useLearningList } from '../api/learning-api';
import { CategoryChips } from '../components/category-chips';
import { VideoGrid } from '../components/video-grid';
import { catalogueQuery, hasFilters, readCatalogue, useUrlState } from '../utils/list-params';

const CLEAR = { q: '', category: null, tag: null } as const;

/** /learn/library: the published catalogue, searched and filtered by category and tag, 24 a page. */
export function LibraryRoute() {
  usePageTitle('Biblioteca', 'Formación');
  const [state, update] = useUrlState(readCatalogue);
  const list = useLearningList(catalogueQuery(state));
  const data = list.data;
  // Typing writes q once the user pauses, replacing the entry: Back does not replay every keystroke.
  const search = useCallback((q: string) => update({ q }, { replace: true }), [update]);
  const filtered = hasFilters(state);
  // A tag in the address that the catalogue no longer has is still offered, so the select says what filters.
  const tags = data ? [...new Set([...data.tags, ...(state.tag ? [state.tag] : [])])].sort((a, b) => a.localeCompare(b, 'es')) : [];

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Biblioteca de formación</h1>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {!data
            ? '\u00a0'
            : filtered
              ? plural(data.total, 'vídeo coincide con la búsqueda', 'vídeos coinciden con la búsqueda')
              : `${plural(data.total, 'vídeo', 'vídeos')} para seguir formándote a tu ritmo`}
        </p>
      </header>

      <div className="grid gap-3">
        <div className="grid gap-3 sm:flex sm:flex-wrap sm:items-center">
          <SearchInput
            className="sm:w-[22rem]"
            value={state.q}
            onSearch={search}
            placeholder="Título, descripción o etiqueta"
            aria-label="Buscar vídeos"
          />
          <NativeSelect
            aria-label="Etiqueta"
            className="sm:w-52"
            placeholder="Todas las etiquetas"
            options={tags.map((t) => ({ value: t, label: t }))}
            value={state.tag ?? ''}
            onChange={(e) => update({ tag: e.target.value || null })}
          />
          {filtered ? (
            <Button variant="ghost" className="justify-self-start" onClick={() => update(CLEAR)}>
              <X aria-hidden /> Limpiar filtros
            </Button>
          ) : null}
        </div>
        <CategoryChips value={state.category} onChange={(category) => update({ category })} />
      </div>

      <VideoGrid
        list={list}
        label="Vídeos de la biblioteca"
        what="la biblioteca"
        onPage={(page) => update({ page })}
        empty={
          filtered ? (
            <EmptyState icon={<SearchX aria-hidden />} title="Ningún vídeo coincide" text="Prueba con otra búsqueda u otros filtros.">
              <Button variant="outline" onClick={() => update(CLEAR)}>
                Limpiar filtros
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              icon={<GraduationCap aria-hidden />}
              title="Aún no hay vídeos en la biblioteca"
              text="Pronto encontrarás aquí comentarios de libros, casos clínicos y habilidades del psicólogo."
            >
              <Button variant="outline" asChild>
                <Link to="/learn/home">Ir a Mi formación</Link>
              </Button>
            </EmptyState>
          )
        }
      />
    </div>
  );
}

export { LibraryRoute as Component };
