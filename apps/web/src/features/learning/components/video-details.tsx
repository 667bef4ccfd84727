import { Link } from 'react-router';
import { CircleCheck, Infinity as Unlimited } from 'lucide-react';
import type { LearningVideo } from '@divan/core';
import { Badge } from '@/components/ui/badge';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatDate } from '@/lib/format';
import { categoryLabel, formatDuration, progressShare } from '../utils/format';
import { BookmarkButton } from './bookmark-button';
import { gridClass, VideoCard } from './video-card';

/** Title, categories, who uploaded it, the favourite toggle, the description and the tags (each a filter). */
export function VideoDetails({ video }: { video: LearningVideo }) {
  return (
    <div className="grid min-w-0 content-start gap-4">
      <div className="grid gap-2">
        <h1 className="font-display text-2xl font-semibold tracking-tight sm:text-3xl">{video.title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {video.categories.map((c) => (
            <Badge key={c} variant="accent">
              {categoryLabel(c)}
            </Badge>
          ))}
          {video.purchased ? <Badge>Comprado</Badge> : null}
          {video.durationSeconds ? <span className="tabular-nums">{formatDuration(video.durationSeconds)}</span> : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-y py-3">
        <p className="text-sm">
          <span className="text-muted-foreground">Subido por </span>
          <span className="font-medium">{video.uploader.name}</span>
          {video.publishedAt ? <span className="text-muted-foreground"> · {formatDate(video.publishedAt)}</span> : null}
        </p>
        <BookmarkButton videoId={video.id} on={video.bookmarked} />
      </div>
      <div className="max-w-prose whitespace-pre-line text-[0.9375rem] leading-relaxed">{video.description}</div>
      {video.tags.length ? (
        <div className="grid gap-2">
          <h2 className="text-sm font-semibold">Etiquetas</h2>
          <ul className="flex flex-wrap gap-1.5">
            {video.tags.map((t) => (
              <li key={t}>
                <Link
                  to={`/learn/library?tag=${encodeURIComponent(t)}`}
                  className="inline-flex rounded-full border px-2.5 py-0.5 text-[0.8125rem] text-muted-foreground hover:bg-muted hover:text-foreground"
                >
                  #{t}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** For a buyer, in the purchase form's place: unlimited access and how far they are. */
export function OwnedPanel({ video }: { video: LearningVideo }) {
  const share = progressShare(video);
  const done = video.progress?.completedAt;
  return (
    <section aria-label="Tu compra" className="grid gap-3 rounded-xl border bg-card p-5 text-sm shadow-xs">
      <p className="flex items-center gap-2 text-base font-semibold">
        <CircleCheck className="size-5 text-success" aria-hidden /> Ya es tuyo
      </p>
      <p className="flex gap-2.5 leading-relaxed text-muted-foreground">
        <Unlimited className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        Acceso sin límite: míralo cuantas veces quieras.
      </p>
      {done ? (
        <p>Completado el {formatDate(done)}.</p>
      ) : share !== null && share > 0 ? (
        <div className="grid gap-1.5">
          <ProgressBar value={share} label="Tu progreso" />
          <p className="text-muted-foreground">Seguirás donde lo dejaste.</p>
        </div>
      ) : null}
      <Link to="/learn/home" className="font-medium text-primary hover:underline">
        Ir a Mi formación
      </Link>
    </section>
  );
}

export function RelatedVideos({ items }: { items: LearningVideo['related'] }) {
  if (!items.length) return null;
  return (
    <section aria-labelledby="learning-related" className="grid gap-4">
      <h2 id="learning-related" className="text-lg font-semibold">
        Vídeos relacionados
      </h2>
      <ul className={gridClass}>
        {items.map((card) => (
          <li key={card.id} className="grid">
            <VideoCard card={card} />
          </li>
        ))}
      </ul>
    </section>
  );
}
