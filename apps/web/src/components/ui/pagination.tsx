import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatInteger, pageRangeLabel } from '@divan/core';

/** A paged list's range, page and previous/next buttons. */
export function Pagination({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Paginación" className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <p aria-live="polite" className="tabular-nums">
        {pageRangeLabel(page, pageSize, total)}
      </p>
      {pages > 1 ? (
        <div className="flex items-center gap-2">
          <span className="hidden tabular-nums sm:inline">
            Página {formatInteger(page)} de {formatInteger(pages)}
          </span>
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            <ChevronLeft aria-hidden /> Anterior
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Siguiente <ChevronRight aria-hidden />
          </Button>
        </div>
      ) : null}
    </nav>
  );
}
