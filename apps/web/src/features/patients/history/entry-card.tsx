import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CalendarCheck, History, Lock, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import type { HistoryEntry } from '@divan/core';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Card } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/cn';
import { Badge } from '@/components/ui/badge';
import { withoutLeadingTitle } from './rich-text-body';
import { sanitizeHistoryHtml } from '@/components/rich-text/safe-html';
import '@/components/rich-text/rich-text.css';

type Props = {
  entry: HistoryEntry;
  onEdit: (() => void) | null;
  onDelete: (() => void) | null;
  onRevisions: () => void;
};

const CLAMP_PX = 320;

export function EntryCard({ entry, onEdit, onDelete, onRevisions }: Props) {
  const body = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const html = useMemo(() => sanitizeHistoryHtml(withoutLeadingTitle(entry.body, entry.title)), [entry.body, entry.title]);

  useLayoutEffect(() => {
    if (body.current) setOverflows(body.current.scrollHeight > CLAMP_PX + 40);
  }, [entry.body]);

  const folded = overflows && !expanded;
  return (
    <Card className="grid gap-3 p-5">
      <header className="flex items-start gap-3">
        <div className="grid min-w-0 flex-1 gap-1">
          <h3 className="text-base font-semibold leading-snug">{entry.title}</h3>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[0.8125rem] text-muted-foreground">
            <time dateTime={entry.date} className="font-medium text-foreground">
              {formatDate(entry.date)}
            </time>
            <span aria-hidden>·</span>
            <span>{entry.author.name}</span>
            {entry.sessionId ? (
              <Badge variant="outline" className="[&_svg]:size-3.5">
                <CalendarCheck aria-hidden /> Nota de sesión
              </Badge>
            ) : null}
            {entry.private ? (
              <Badge variant="accent" className="[&_svg]:size-3.5" title="Solo tú puedes verla">
                <Lock aria-hidden /> Privada
              </Badge>
            ) : null}
            {entry.revisions > 0 ? (
              <button type="button" onClick={onRevisions} className="inline-flex items-center gap-1 rounded text-primary hover:underline">
                <History className="size-3.5" aria-hidden />
                {entry.revisions === 1 ? 'editada 1 vez' : `editada ${entry.revisions} veces`}
              </button>
            ) : null}
          </p>
        </div>
        {onEdit || onDelete ? (
          <DropdownMenu>
            <DropdownMenuTrigger
              className="grid size-8 shrink-0 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
              aria-label={`Acciones de «${entry.title}»`}
            >
              <MoreHorizontal className="size-4" aria-hidden />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {onEdit ? (
                <DropdownMenuItem onSelect={onEdit}>
                  <Pencil aria-hidden /> Editar
                </DropdownMenuItem>
              ) : null}
              {onDelete ? (
                <DropdownMenuItem onSelect={onDelete} className="text-destructive [&_svg]:!text-destructive">
                  <Trash2 aria-hidden /> Eliminar
                </DropdownMenuItem>
              ) : null}
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null}
      </header>
      {entry.body ? (
        <div className="relative">
          <div
            ref={body}
            className={cn('rich-text', folded && 'overflow-hidden')}
            style={folded ? { maxHeight: CLAMP_PX } : undefined}
            // Sanitised by the server with an allow-list before it was stored, and again here (DOMPurify).
            dangerouslySetInnerHTML={{ __html: html }}
          />
          {folded ? <div className="pointer-events-none absolute inset-x-0 bottom-0 h-16 bg-gradient-to-t from-card" aria-hidden /> : null}
        </div>
      ) : (
        <p className="text-sm italic text-muted-foreground">Sin texto.</p>
      )}
      {overflows ? (
        <button
          type="button"
          onClick={() => setExpanded((v) => !v)}
          aria-expanded={expanded}
          className="justify-self-start text-sm font-medium text-primary hover:underline"
        >
          {expanded ? 'Mostrar menos' : 'Mostrar todo'}
        </button>
      ) : null}
    </Card>
  );
}
