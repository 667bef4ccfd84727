import { ChevronLeft, ChevronRight } from 'lucide-react';
import { formatInteger } from '@divan/core';
import { Button } from '@/components/ui/button';
import { rangeLabel } from '../utils/list-params';

export function Pagination({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Paginación" className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <p aria-live="polite" className="tabular-nums">
        {rangeLabel(page, pageSize, total)}
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
