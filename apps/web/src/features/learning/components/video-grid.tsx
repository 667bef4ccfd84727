import type { ReactNode } from 'react';
import type { LearningList } from '@divan/core';
import { Pagination } from '@/components/ui/pagination';
import { LoadError } from '@/components/ui/states';
import { gridClass, VideoCard, VideoCardSkeleton } from './video-card';

type ListQuery = {
  data: LearningList | undefined;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
};

/** A page of cards with its states: failed (and «Reintentar»), loading, `empty`, then the pages. */
export function VideoGrid({
  list,
  label,
  what,
  empty,
  onPage,
}: {
  list: ListQuery;
  /** The region's name for screen readers. */
  label: string;
  /** «No se pudo cargar {what}». */
  what: string;
  empty: ReactNode;
  onPage: (page: number) => void;
}) {
  const data = list.data;
  return (
    <section aria-label={label} aria-busy={list.isFetching} className="grid min-w-0 gap-5">
      {list.isError && !data ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} what={what} />
      ) : !data ? (
        <div className={gridClass}>
          {Array.from({ length: 8 }, (_, i) => (
            <VideoCardSkeleton key={i} />
          ))}
        </div>
      ) : data.items.length === 0 ? (
        <div className="rounded-xl border bg-card">{empty}</div>
      ) : (
        <ul className={`${gridClass} ${list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}`}>
          {data.items.map((card) => (
            <li key={card.id} className="grid">
              <VideoCard card={card} />
            </li>
          ))}
        </ul>
      )}
      {data && data.total > 0 ? (
        <Pagination
          page={data.page}
          pageSize={data.pageSize}
          total={data.total}
          onPage={(page) => {
            onPage(page);
            window.scrollTo({ top: 0 });
          }}
        />
      ) : null}
    </section>
  );
}
