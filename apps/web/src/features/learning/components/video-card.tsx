import { Link } from 'react-router';
import { CircleCheck, PlayCircle } from 'lucide-react';
import type { LearningCard } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { ProgressBar } from '@/components/ui/progress-bar';
import { cn } from '@/lib/cn';
import { formatCurrency } from '@/lib/format';
import { cardColour, categoryLabel, formatDuration, isInProgress, progressShare } from '../utils/format';

/** The card's picture: its colour with the transparent icon centred (also the player's poster). */
export function CardArt({
  card,
  className,
  big = false,
}: {
  card: Pick<LearningCard, 'colour' | 'iconUrl'>;
  className?: string;
  big?: boolean;
}) {
  return (
    <div className={cn('relative grid place-items-center', className)} style={{ backgroundColor: cardColour(card.colour) }}>
      {card.iconUrl ? (
        <img
          src={card.iconUrl}
          alt=""
          loading="lazy"
          className={cn('object-contain drop-shadow-sm', big ? 'size-28 sm:size-36' : 'size-16 sm:size-20')}
        />
      ) : (
        <PlayCircle className={cn('text-white/85', big ? 'size-20' : 'size-12')} aria-hidden />
      )}
    </div>
  );
}

/**
 * A video of the library: one link (its title, stretched over the card) so the keyboard stops once per
 * card; price with IVA, or «Comprado» and the progress for a buyer.
 */
export function VideoCard({ card }: { card: LearningCard }) {
  const share = isInProgress(card) ? progressShare(card) : null;
  const completed = card.purchased && !!card.progress?.completedAt;
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-xl border bg-card shadow-xs transition-colors focus-within:ring-2 focus-within:ring-ring hover:border-primary/40">
      <div className="relative">
        <CardArt card={card} className="aspect-video" />
        {card.purchased ? <Badge className="absolute left-2 top-2 bg-card text-foreground shadow-xs">Comprado</Badge> : null}
        {card.durationSeconds ? (
          <span className="absolute bottom-2 right-2 rounded bg-black/70 px-1.5 py-0.5 text-xs tabular-nums text-white">
            <span className="sr-only">Duración: </span>
            {formatDuration(card.durationSeconds)}
          </span>
        ) : null}
      </div>
      <div className="grid flex-1 content-start gap-2 p-4">
        <h3 className="line-clamp-2 text-[0.9375rem] font-semibold leading-snug">
          <Link to={`/learn/video/${card.id}`} className="outline-none after:absolute after:inset-0 group-hover:text-primary">
            {card.title}
          </Link>
        </h3>
        {card.categories.length ? (
          <ul className="flex flex-wrap gap-1" aria-label="Categorías">
            {card.categories.map((c) => (
              <li key={c}>
                <Badge variant="accent">{categoryLabel(c)}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-auto pt-1 text-sm">
          {!card.purchased ? (
            <p className="tabular-nums">
              <span className="font-semibold">{formatCurrency(card.priceWithVatCents)}</span>
              <span className="text-muted-foreground"> IVA incluido</span>
            </p>
          ) : completed ? (
            <p className="flex items-center gap-1.5 text-muted-foreground">
              <CircleCheck className="size-4 text-success" aria-hidden /> Completado
            </p>
          ) : share !== null ? (
            <ProgressBar value={share} label={`Progreso de «${card.title}»`} className="h-1.5" />
          ) : null}
        </div>
      </div>
    </article>
  );
}

export function VideoCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border bg-card" aria-hidden>
      <div className="aspect-video animate-pulse bg-muted" />
      <div className="grid gap-2 p-4">
        <div className="h-4 w-4/5 animate-pulse rounded bg-muted" />
        <div className="h-4 w-1/3 animate-pulse rounded bg-muted" />
      </div>
    </div>
  );
}

export const gridClass = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';
