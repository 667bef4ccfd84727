import { Link } from 'react-router';
import { Bookmark, CircleCheck, PlayCircle, SearchX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/states';
import { usePageTitle } from '@/lib/use-page-title';
import { useLearningList } from '../api/learning-api';
import { CategoryChips } from '../components/category-chips';
import { PurchasesCard } from '../components/purchases-card';
import { ShelfTabs } from '../components/shelf-tabs';
import { VideoGrid } from '../components/video-grid';
import { readShelf, shelfQuery, useUrlState, type HomeShelf } from '../utils/list-params';

const empties: Record<HomeShelf, { icon: typeof Bookmark; title: string; text: string }> = {
  in_progress: {
    icon: PlayCircle,
    title: 'No tienes vídeos a medias',
    text: 'Los vídeos que empieces a ver aparecerán aquí para continuar donde los dejaste.',
  },
  favorites: {
    icon: Bookmark,
    title: 'Aún no tienes favoritos',
    text: 'Pulsa «Guardar en favoritos» en un vídeo para tenerlo siempre a mano.',
  },
  completed: {
    icon: CircleCheck,
    title: 'Todavía no has completado ningún vídeo',
    text: 'Un vídeo se completa al verlo al menos en un 90 %.',
  },
};

const PANEL = 'learning-shelf';

/** /learn/home, «Mi formación»: En curso, Favoritos and Completados, each by category; then what was bought. */
export function HomeRoute() {
  usePageTitle('Mi formación', 'Formación');
  const [state, update] = useUrlState(readShelf);
  const list = useLearningList(shelfQuery(state));
  const empty = empties[state.shelf];
  const Icon = empty.icon;

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="font-display text-3xl font-semibold tracking-tight">Mi formación</h1>
        <p className="text-sm text-muted-foreground">Lo que estás viendo, lo que guardaste y lo que ya completaste.</p>
      </header>
      <div className="grid gap-4">
        <ShelfTabs value={state.shelf} onChange={(shelf) => update({ shelf })} panelId={PANEL} />
        <CategoryChips value={state.category} onChange={(category) => update({ category })} />
      </div>
      <div id={PANEL} role="tabpanel" aria-labelledby={`shelf-${state.shelf}`}>
        <VideoGrid
          list={list}
          label="Vídeos"
          what="tus vídeos"
          onPage={(page) => update({ page })}
          empty={
            state.category ? (
              <EmptyState icon={<SearchX aria-hidden />} title="Ningún vídeo de esta categoría" text="Prueba con otra categoría.">
                <Button variant="outline" onClick={() => update({ category: null })}>
                  Ver todas las categorías
                </Button>
              </EmptyState>
            ) : (
              <EmptyState icon={<Icon aria-hidden />} title={empty.title} text={empty.text}>
                <Button variant="outline" asChild>
                  <Link to="/learn/library">Explorar la biblioteca</Link>
                </Button>
              </EmptyState>
            )
          }
        />
      </div>
      <PurchasesCard />
    </div>
  );
}

export { HomeRoute as Component };
