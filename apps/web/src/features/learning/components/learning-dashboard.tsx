import { useId } from 'react';
import { Link } from 'react-router';
import { PlayCircle, TrendingUp } from 'lucide-react';
import type { LearningCard } from '@divan/core';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCurrency } from '@/lib/format';
import { useLearningShortList } from '../api/short-lists';

/** Where the buyer is, in %; null without a duration. */
const percentOf = (c: LearningCard) =>
  c.progress && c.durationSeconds ? Math.round(Math.min(1, c.progress.positionSeconds / c.durationSeconds) * 100) : null;

/**
 * One video as a row: its colour and icon, title, then the progress (continue) or the price (popular). Drawn
 * with no more than the shell already has (no core rules, no shared bar): this chunk counts in its budget.
 */
function Row({ card, continuing }: { card: LearningCard; continuing: boolean }) {
  const percent = percentOf(card);
  return (
    <li>
      <Link
        to={`/learn/video/${card.id}`}
        className="flex items-center gap-3 rounded-lg px-2 py-2 outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="grid size-12 shrink-0 place-items-center rounded-md" style={{ backgroundColor: card.colour }}>
          {card.iconUrl ? <img src={card.iconUrl} alt="" className="size-8 object-contain" loading="lazy" /> : null}
        </span>
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="truncate text-sm font-medium">{card.title}</span>
          {continuing && percent !== null ? (
            <span
              role="progressbar"
              aria-label={`Progreso de «${card.title}»`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-1.5 overflow-hidden rounded-full bg-muted"
            >
              <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
            </span>
          ) : (
            <span className="truncate text-[0.8125rem] text-muted-foreground">
              {card.purchased ? 'Comprado' : `${formatCurrency(card.priceWithVatCents)} IVA incluido`}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}

function Section({
  title,
  icon: Icon,
  items,
  continuing,
}: {
  title: string;
  icon: typeof PlayCircle;
  items: LearningCard[];
  continuing: boolean;
}) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={id} className="flex items-center gap-2">
          <Icon className="size-4 text-primary" aria-hidden /> {title}
        </CardTitle>
        <Link to={continuing ? '/learn/home' : '/learn/library'} className="text-[0.8125rem] font-medium text-primary hover:underline">
          {continuing ? 'Mi formación' : 'Ver la biblioteca'}
        </Link>
      </CardHeader>
      <CardContent className="pt-3 sm:pt-3">
        <ul className="-mx-2 grid gap-0.5 sm:grid-cols-2">
          {items.map((card) => (
            <Row key={card.id} card={card} continuing={continuing} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * The dashboard's part of the library (spec §2): «Continuar viendo» and «Vídeos populares», each only when it
 * has something (a failed read leaves the dashboard as it was: the library has its own page and states).
 * Loaded as its own chunk once the dashboard shows (app/screens.ts).
 */
export function LearningDashboard() {
  const going = useLearningShortList('continue');
  const popular = useLearningShortList('popular');
  const continuing = going.data?.items ?? [];
  const popularItems = popular.data?.items ?? [];
  if (!continuing.length && !popularItems.length) return null;
  return (
    <>
      {continuing.length ? <Section title="Continuar viendo" icon={PlayCircle} items={continuing} continuing /> : null}
      {popularItems.length ? <Section title="Vídeos populares" icon={TrendingUp} items={popularItems} continuing={false} /> : null}
    </>
  );
}
